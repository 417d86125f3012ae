"""The lobby list socket (``/ws/lobbies/``): public lobbies and games, pushed on every change.
It reads no frame."""

from django.utils import translation

from core.caches import BoundedCache
from core.db import in_db_thread
from games import publish
from web.games import rendering
from web.sockets.base import FAILED, Socket
from web.sockets.shared import shared

# Rendered once per change and language for all the sockets of this process.
_lists = BoundedCache(64, "sockets.lobby_lists")


class LobbyListConsumer(Socket):
    label = "lobby list socket"

    async def open(self):
        if await self.enter(publish.LOBBY_LIST_GROUP):
            await self.send(text_data=await in_db_thread(self.render)())

    async def receive(self, text_data=None, bytes_data=None):
        pass

    async def lobbies_updated(self, event):
        key = (event["change"], self.language)
        html = await self.attempt(
            "list not rendered", shared, _lists, key, in_db_thread(self.render)
        )
        if html is not FAILED:
            await self.send(text_data=html)

    def render(self) -> str:
        with translation.override(self.language):
            return rendering.lobby_list_html()
