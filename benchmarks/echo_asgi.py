"""The bare echo: the floor of this stack (Daphne + Channels + the channel layer) on this machine.

``daphne benchmarks.echo_asgi:application`` serves ``/ws/echo/<game>/``: a socket joins the
group of its game and gets a first frame; every frame a socket sends, ``{"version": n,
"size": s, ...}``, is relayed through the channel layer to every socket of the group as a
frame of ``s`` characters holding ``"version": n + 1``. No authentication, no database, no
game logic: what a move costs on top of this is the project's own cost. It is a plain
``AsyncWebsocketConsumer``, as the site's sockets are.
"""

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
