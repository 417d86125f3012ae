"""The turns socket (``/ws/turns/``, on every page of a logged-in user): after a change of the
correspondence games waiting for them (games.publish.turns_changed) it pushes the header's
``#turns-count``, and with ``?list=1`` (the home page) the ``#your-turn-list`` too. It reads no
frame and does nothing between changes."""

from django.utils import translation

from core.db import in_db_thread
from games import publish
from web.games import turns
from web.sockets.base import FAILED, Socket


class TurnsConsumer(Socket):
    label = "turns socket"

    async def open(self):
        self.with_list = self.param("list") == "1"
        await self.enter(publish.turns_group(self.user.pk))

    async def receive(self, text_data=None, bytes_data=None):
        pass

    async def turns_changed(self, event):
        html = await self.attempt("turns not rendered", in_db_thread(self.render))
        if html is not FAILED and not self.closed:
            await self.send(text_data=html)

    def render(self) -> str:
        with translation.override(self.language):
            return turns.push_html(self.user, with_list=self.with_list)
