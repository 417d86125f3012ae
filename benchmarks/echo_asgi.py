"""The bare echo, the floor of Daphne + Channels + the layer: a socket of ``/ws/echo/<game>/``
joins its group, and each frame ``{"version": n, "size": s}`` goes to the whole group as ``s``
characters with version n + 1. No authentication, database or game logic."""

import json
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchmarks.relay_settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


def frame(version: int, size: int) -> str:
    """A state-like frame of ``size`` characters (at least the bare JSON)."""
    text = json.dumps({"version": version, "players": [], "pad": ""})
    return text[:-2] + "x" * max(0, size - len(text)) + '"}'


class EchoConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"echo.{self.scope['url_route']['kwargs']['game']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=frame(0, 0))

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        data = json.loads(text_data)
        text = frame(int(data["version"]) + 1, int(data["size"]))
        await self.channel_layer.group_send(self.group, {"type": "echo.relay", "text": text})

    async def echo_relay(self, event):
        await self.send(text_data=event["text"])


application = ProtocolTypeRouter(
    {"websocket": URLRouter([path("ws/echo/<int:game>/", EchoConsumer.as_asgi())])}
)
