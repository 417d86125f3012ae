"""Websocket test helpers: connect a user to the game socket, read frames."""

import json

from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from web.sockets.routing import websocket_urlpatterns

ROUTER = URLRouter(websocket_urlpatterns)


async def connect(user, path: str, *, expect=True) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(ROUTER, path)
    comm.scope["user"] = user
    comm.scope["cookies"] = {}
    connected, _ = await comm.connect(timeout=5)
    assert connected is expect
    return comm


async def game_socket(user, game_id: int, fmt: str = "json") -> tuple[WebsocketCommunicator, dict]:
    """Connect and read the first frame (the full state)."""
    suffix = "?format=json" if fmt == "json" else ""
    comm = await connect(user, f"/ws/games/{game_id}/{suffix}")
    first = await comm.receive_from(timeout=5)
    return comm, (json.loads(first) if fmt == "json" else first)


async def receive_json(comm, timeout=5) -> dict:
    return json.loads(await comm.receive_from(timeout=timeout))


async def send(comm, data) -> None:
    await comm.send_to(text_data=json.dumps(data))


db = database_sync_to_async
