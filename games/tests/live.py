"""Real Daphne processes and a real websocket client, for the restart and two-process tests."""

import asyncio
import json
from contextlib import asynccontextmanager

from django.contrib.auth import get_user_model
from django.test import Client
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

# What ``daphne --websocket_connect_timeout 30`` (docs/deployment.md) sets: both the time to
# accept a socket and autobahn's opening-handshake limit (5 s by default, which closed
# handshakes on a loaded machine: "EOFError ... reading HTTP status line").
DEPLOYED_TIMEOUTS = {"websocket_connect_timeout": 30, "websocket_handshake_timeout": 30}


def _get_application():
    from skyjo_site.asgi import application

    return application


def _child_setup():
    """In the forked child: a fresh asgiref thread pool (the parent's worker threads do not
    exist here, so its copied executor would never run anything), and the test database."""
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import AsyncToSync, SyncToAsync
    from channels.layers import channel_layers

    channel_layers.backends.clear()  # and its own channel layer, not the parent's connections
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    SyncToAsync.context_to_thread_executor.clear()
    AsyncToSync.loop_thread_executors.clear()
    _use_test_database()
    from conftest import live_server_settings

    live_server_settings()


def _use_test_database():
    from django.conf import settings
    from django.db import connections

    test_name = settings.DATABASES["default"]["TEST"]["NAME"]
    settings.DATABASES["default"]["NAME"] = test_name
    connections["default"].settings_dict["NAME"] = test_name


def start_daphne(*, persistent: bool = False, **server_options):
    """Fork a Daphne child serving the site on the test database; returns the process.
    ``server_options`` go to daphne's ``Server`` (e.g. ``websocket_connect_timeout=30``);
    ``persistent``: the child keeps its database connections (as docs/deployment.md advises),
    not a new one per request and runner pass.

    Call it from a thread with no running event loop (``asyncio.to_thread``): a child forked
    from inside a running loop inherits that loop's state and cannot serve websockets.
    """
    from daphne.testing import DaphneProcess
    from django.db import connections

    connections.close_all()  # the child must not share the parent's database connection
    process = DaphneProcess(
        "127.0.0.1", _get_application, kwargs=server_options or None, setup=_child_setup
    )
    settings_dict = connections["default"].settings_dict
    before = settings_dict["CONN_MAX_AGE"], settings_dict["CONN_HEALTH_CHECKS"]
    if persistent:
        settings_dict["CONN_MAX_AGE"], settings_dict["CONN_HEALTH_CHECKS"] = 60, True
    try:
        process.start()
    finally:
        settings_dict["CONN_MAX_AGE"], settings_dict["CONN_HEALTH_CHECKS"] = before
    while not process.ready.wait(timeout=1):
        if not process.is_alive():
            raise RuntimeError("Daphne stopped before it was ready")
    return process


@asynccontextmanager
async def daphne(**options):
    """A live Daphne (``start_daphne``'s ``options``) for the body of an ``async with``;
    yields its port."""
    process = await asyncio.to_thread(start_daphne, **options)
    try:
        yield process.port.value
    finally:
        await asyncio.to_thread(stop, process)


def stop(process) -> None:
    if process.is_alive():
        process.terminate()
        process.join(timeout=10)


def session_cookie(user) -> str:
    client = Client()
    client.force_login(get_user_model().objects.get(pk=user.pk))
    return f"sessionid={client.cookies['sessionid'].value}"


class Player:
    """One JSON-mode game socket on a live server."""

    def __init__(self, cookie: str, port: int, game_id: int, *, presence: bool = False):
        self.cookie, self.port, self.game_id = cookie, port, game_id
        self.query = "format=json&presence=1" if presence else "format=json"
        self.ws = None
        self.state = None

    async def open(self) -> dict:
        self.ws = await ws_connect(
            f"ws://127.0.0.1:{self.port}/ws/games/{self.game_id}/?{self.query}",
            additional_headers={"Cookie": self.cookie},
            origin=f"http://127.0.0.1:{self.port}",
            open_timeout=30,
        )
        self.state = await self.receive()
        return self.state

    async def receive(self, timeout: float = 10) -> dict:
        frame = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if "version" in frame and "players" in frame:
            self.state = frame
        return frame

    async def until_version(self, version: int, timeout: float = 10) -> dict:
        while self.state is None or self.state["version"] < version:
            frame = await self.receive(timeout)
            assert "error" not in frame, frame
        return self.state

    async def send(self, data: dict) -> None:
        await self.ws.send(json.dumps(data))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


QUIET = 2.0  # seconds without a frame before a seated player asks for a sync


def own_step(state: dict, seat: int) -> dict | None:
    """A legal step of ``seat`` in ``state`` (that seat's view), or ``None`` if it waits for
    others: its reveals, then on its turn draw and keep a low card (failover.choose)."""
    from games.tests.failover import choose

    phase, grid = state["phase"], state["players"][seat]["grid"]
    if phase == "reveal":
        if sum(c not in ("?", None) for c in grid) < 2:
            return {"reveal": grid.index("?"), "version": state["version"]}
        return None
    if phase == "round_over":
        return {"ready": True}
    if phase in ("play", "final") and state["current"] == seat:
        _seat, action = choose([state] * len(state["players"]))
        return {**action, "version": state["version"]}
    return None


async def play_seat(player: Player, seat: int) -> int:
    """Play ``seat`` on ``player``'s open socket until the game is over (or the socket
    closes); returns the steps it sent less the error frames it got (at most the steps the
    game took from it). A step is sent once per state it answers; a refused one (say
    ``stale_version``) is answered by an error frame, then a sync settles what to do."""
    sent, refused, pending, readied = 0, 0, None, set()
    try:
        while player.state["phase"] != "game_over":
            step = own_step(player.state, seat)
            if step is not None and step.get("ready") and player.state["round"] in readied:
                step = None
            if step is not None and step != pending:
                await player.send(step)
                sent, pending = sent + 1, step
                if step.get("ready"):
                    readied.add(player.state["round"])
            try:
                frame = await player.receive(timeout=QUIET)
            except TimeoutError:
                pending = None
                await player.send({"sync": True})
                continue
            if "error" in frame:
                refused += 1
                pending = None
                await player.send({"sync": True})
    except ConnectionClosed:
        pass
    return sent - refused
