"""The lobby socket (``/ws/lobbies/<id>/``): the seats rendered for this user after every
change, and the lobby's chat."""

from django.template.loader import render_to_string
from django.utils import translation

from core import close_codes
from core.access import sees_private_games
from core.caches import BoundedCache
from core.db import in_db_thread
from core.errors import NotFound
from games import publish, selectors
from web.games.presenters import lobby_context
from web.sockets import frames
from web.sockets.base import FAILED, Socket
from web.sockets.shared import shared

# The lobby read after a change, once per change for all the sockets of this process.
_reads = BoundedCache(64, "sockets.lobby_reads")


def _read(lobby_id: int):
    lobby = selectors.lobby_with_seats(lobby_id)
    return lobby, selectors.lobby_removed_ids(lobby)


class LobbyConsumer(Socket):
    async def open(self):
        self.lobby_id = int(self.scope["url_route"]["kwargs"]["lobby_id"])
        self.label = f"lobby socket {self.lobby_id}"
        self.invite = self.param("invite")
        self.csrf = self.scope.get("cookies", {}).get("csrftoken", "")
        html = await in_db_thread(self.first_page)()
        if await self.enter(publish.lobby_group(self.lobby_id)):
            await self.send(text_data=await in_db_thread(self.first_page)() or html)

    async def frame(self, text_data, bytes_data) -> None:
        await self.chat_receive(frames.parse_lobby_frame(text_data, bytes_data))

    async def lobby_updated(self, event):
        read = in_db_thread(_read)
        found = await self.attempt(
            "lobby not read", shared, _reads, event["change"], read, self.lobby_id
        )
        if found is FAILED:
            return
        lobby, removed = found
        seen_by = {"user": self.user, "invite_code": self.invite, "moderator": self.moderator}
        try:
            selectors.lobby_seen_by(lobby, removed=removed, **seen_by)
        except NotFound:  # no longer theirs (removed from a private lobby): no more chat either
            await self.close(code=close_codes.NOT_FOUND)
            return
        html = await in_db_thread(self.page)(lobby_context(lobby, self.user, self.invite, removed))
        await self.send(text_data=html)

    def first_page(self) -> str:
        """The page on connecting (``NotFound`` if the user may not see the lobby)."""
        self.moderator = sees_private_games(self.user)
        lobby = selectors.lobby_seen_by(
            selectors.lobby_with_seats(self.lobby_id),
            user=self.user,
            invite_code=self.invite,
            moderator=self.moderator,
        )
        return self.page(lobby_context(lobby, self.user, self.invite))

    def page(self, context: dict) -> str:
        context.update(user=self.user, csrf_token=self.csrf)
        with translation.override(self.language):
            return render_to_string("games/partials/lobby_seats.html", context)
