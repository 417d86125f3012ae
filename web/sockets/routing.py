"""Websocket URL patterns, mounted by skyjo_site/asgi.py under auth and origin checks. Any other
path under ``ws/`` is refused (consumers.UnknownSocket closes it with ``4404`` before the accept,
which Daphne answers with HTTP 403), not an error of the server."""

from django.urls import path, re_path

from web import converters  # noqa: F401  (registers <id:...>)
from web.sockets import game as consumers

websocket_urlpatterns = [
    path("ws/games/<id:game_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/lobbies/", consumers.LobbyListConsumer.as_asgi()),
    path("ws/lobbies/<id:lobby_id>/", consumers.LobbyConsumer.as_asgi()),
    re_path(r"^ws/", consumers.UnknownSocket.as_asgi()),
]
