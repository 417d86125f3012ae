"""The tournament socket (``/ws/tournaments/<id>/``): the live standings, tables and podium,
pushed at most every ``PUSH_EVERY`` seconds however many tables change (a change that comes
sooner is folded into the next push); a player's own new table; and the tournament's chat
(its room, a lobby of games.services.room_open: the lobby socket's chat frames)."""

import asyncio
import time

from django.utils import translation

from core.caches import BoundedCache
from core.db import in_db_thread
from core.errors import NotFound
from games import publish as games_publish
from tournaments import publish, selectors
from web.sockets import frames
from web.sockets.base import FAILED, Socket
from web.sockets.shared import shared
from web.tournaments import rendering

PUSH_EVERY = 0.5

# Rendered once per version and language for all the sockets of this process.
_live = BoundedCache(64, "sockets.tournament_live")


class TournamentConsumer(Socket):
    chat_heading = rendering.CHAT_HEADING
    pending = None
    lobby_id = None
    sent_at = 0.0
    version = 0

    @property
    def label(self) -> str:
        return f"tournament socket {self.tournament_id}"

    async def open(self):
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        html = await in_db_thread(self.first_page)()
        groups = [publish.group(self.tournament_id)]
        if self.lobby_id is not None:
            groups.append(games_publish.lobby_group(self.lobby_id))
        if await self.enter(*groups):
            await self.send(text_data=html)
            self.sent_at = time.monotonic()
            await self.send_missed_table()

    async def send_missed_table(self) -> None:
        """The player's table if it is newer than the one their page shows (``?table=``):
        a seating between the page's load and the joining of the group is otherwise unheard."""
        game_id = await in_db_thread(selectors.my_table_of)(self.tournament_id, self.user)
        if game_id is not None and str(game_id) != self.param("table"):
            with translation.override(self.language):
                await self.send(text_data=rendering.my_table_html(game_id, new=True))

    def first_page(self) -> str:
        tournament = selectors.tournament_get(self.tournament_id)
        if tournament is None or not rendering.may_see(tournament, self.user, self.param("invite")):
            raise NotFound()
        self.version = tournament.version
        self.lobby_id = tournament.room_id  # the chat (web.sockets.chat): it may read the room
        self.invite = tournament.room.invite_code if tournament.room_id else None
        with translation.override(self.language):
            return rendering.live_html(tournament)

    def render(self) -> str:
        with translation.override(self.language):
            return rendering.pushed_html(selectors.tournament_get(self.tournament_id))

    async def frame(self, text_data, bytes_data) -> None:
        await self.chat_receive(frames.parse_lobby_frame(text_data, bytes_data))

    async def tournament_changed(self, event):
        self.version = max(self.version, event["version"])
        if self.pending is None or self.pending.done():
            self.pending = asyncio.ensure_future(self.push())

    async def push(self) -> None:
        """Send the newest standings once ``PUSH_EVERY`` has passed since the last push; again
        if a change came in meanwhile."""
        while True:
            wait = self.sent_at + PUSH_EVERY - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self.sent_at = time.monotonic()
            version = self.version
            key = (self.tournament_id, version, self.language)
            render = in_db_thread(self.render)
            html = await self.attempt("standings not rendered", shared, _live, key, render)
            if html is not FAILED and not self.closed:
                await self.send(text_data=html)
            if self.version == version or self.closed:
                return

    async def tournament_seated(self, event):
        game_id = event["tables"].get(str(self.user.pk))
        if game_id is not None:
            with translation.override(self.language):
                await self.send(text_data=rendering.my_table_html(game_id, new=True))

    async def tournament_table_over(self, event):
        if self.user.pk in event["users"]:
            with translation.override(self.language):
                await self.send(text_data=rendering.my_table_html(None, new=False))

    async def disconnect(self, code):
        if self.pending is not None:
            self.pending.cancel()
        await super().disconnect(code)
