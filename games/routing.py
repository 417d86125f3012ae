"""Websocket URL patterns, mounted by skyjo_site/asgi.py under auth and origin checks."""

from django.urls import path

from games import consumers

websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", consumers.GameConsumer.as_asgi()),
    path("ws/lobbies/", consumers.LobbyListConsumer.as_asgi()),
    path("ws/lobbies/<int:lobby_id>/", consumers.LobbyConsumer.as_asgi()),
]
