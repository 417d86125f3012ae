"""Websocket URL patterns, mounted by skyjo_site/asgi.py under auth and origin checks; any
other path under ``ws/`` is refused (base.UnknownSocket)."""

from django.urls import path, re_path

from web import converters  # noqa: F401  (registers <id:...>)
from web.sockets.base import UnknownSocket
from web.sockets.game import GameConsumer
from web.sockets.lobby import LobbyConsumer
from web.sockets.lobby_list import LobbyListConsumer
from web.sockets.tournament import TournamentConsumer
from web.sockets.turns import TurnsConsumer

websocket_urlpatterns = [
    path("ws/games/<id:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobbies/", LobbyListConsumer.as_asgi()),
    path("ws/lobbies/<id:lobby_id>/", LobbyConsumer.as_asgi()),
    path("ws/tournaments/<id:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/turns/", TurnsConsumer.as_asgi()),
    re_path(r"^ws/", UnknownSocket.as_asgi()),
]
