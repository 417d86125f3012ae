"""The chat's part of the lobby and game sockets (web.sockets.game): a mixin, so that the
consumers only route to it.

- ``chat_receive(data)``: a chat frame from the client (web.sockets.chat_frames) -> ``chat_post`` in the
  database thread; a refusal is answered to this socket only (``#chat-flash`` in HTML,
  ``{"error": {...}}`` in JSON).
- ``chat_message`` / ``chat_hidden``: the group messages of chat.publish. Each socket keeps
  what it needs to filter them (its reader's mutes and chat switch), read on the first chat
  message it gets and again on ``chat_prefs`` (the reader changed them), never on a move. A
  message of a private lobby names who its host removed (``removed``): such a reader's socket
  closes (``4404``) instead of showing it.

What a socket is, the mixin reads from the consumer's own attributes: ``game_id`` and
``seat`` (a game socket: a seat writes and reads the players' channel, anyone else the
spectators'), ``lobby_id`` and ``invite`` (a lobby socket), neither (no chat: the lobby list).
"""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from chat.errors import ChatError
from chat.models import Message
from chat.selectors import muted_ids
from chat.services import chat_post
from core import close_codes
from core.db import in_db_thread
from core.errors import DATABASE_DOWN, ServiceError, Unavailable, one_line
from core.token_bucket import TokenBucket
from web.chat import rendering
from web.sockets import access as account_sockets
from web.sockets import chat_frames as frames

log = logging.getLogger(__name__)


class _AccessEnded(Exception):
    """The socket's session ended, or its user was banned, since it opened."""


class ChatSocket:
    chat_prefs_loaded = False
    chat_enabled = True
    chat_muted: frozenset = frozenset()

    # ------------------------------------------------------------ what this socket is

    chat_accepted = False
    chat_bucket = None
    chat_dropped = 0

    async def accept(self, *args, **kwargs):
        await super().accept(*args, **kwargs)
        self.chat_accepted = True

    async def close(self, *args, **kwargs):
        self.chat_accepted = False
        await super().close(*args, **kwargs)

    def chat_place(self) -> dict | None:
        if not self.chat_accepted:
            return None
        if getattr(self, "game_id", None) is not None:
            return {"game_id": self.game_id}
        if getattr(self, "lobby_id", None) is not None:
            return {"lobby_id": self.lobby_id}
        return None

    def chat_player(self) -> bool:
        return getattr(self, "game_id", None) is None or getattr(self, "seat", None) is not None

    def chat_json(self) -> bool:
        return bool(getattr(self, "json_mode", False))

    def chat_language(self) -> str:
        return self.language

    def chat_channel(self) -> str:
        if "lobby_id" in (self.chat_place() or {}) or self.chat_player():
            return Message.Channel.PLAYERS
        return Message.Channel.SPECTATORS

    # ------------------------------------------------------------ from the client

    async def chat_frame(self, text_data, bytes_data) -> None:
        """A frame on a socket that takes chat frames only (a lobby's): parse, post, answer.
        Its own token bucket (SKYJO_WS_RATE, SKYJO_WS_BURST), like a game socket's, and like
        it closed (``4429``) after SKYJO_WS_MAX_DROPPED refused frames: each refusal is a
        rendered answer, which a client flooding the socket would have for as long as it
        liked."""
        if self.chat_bucket is None:
            self.chat_bucket = TokenBucket(
                rate=settings.SKYJO_WS_RATE, burst=settings.SKYJO_WS_BURST
            )
        try:
            if settings.RATELIMIT_ENABLE and not self.chat_bucket.take():
                self.chat_dropped += 1
                if self.chat_dropped > settings.SKYJO_WS_MAX_DROPPED:
                    if self.chat_accepted:
                        log.warning(
                            "lobby socket: closed after %s refused frames", self.chat_dropped - 1
                        )
                        await self.close(code=close_codes.RATE_LIMITED)
                    return
                raise ChatError(
                    _("Too many messages at once: this one was ignored. Slow down."),
                    code="rate_limited",
                )
            data = frames.parse_text(text_data, bytes_data)
        except ServiceError as exc:
            await self.chat_send_error(exc)
            return
        await self.chat_receive(data)

    async def chat_receive(self, data: dict) -> None:
        place = self.chat_place()
        if place is None:
            return
        try:
            await in_db_thread(self._chat_post)(data, place)
        except ServiceError as exc:  # a ChatError, or NotFound: the place is no longer theirs
            await self.chat_send_error(exc)
        except DATABASE_DOWN as exc:
            log.warning("chat: database unavailable: %s", one_line(exc))
            await self.chat_send_error(Unavailable())
        except _AccessEnded:
            await self.close(code=close_codes.UNAUTHENTICATED)

    def _chat_post(self, data: dict, place: dict) -> None:
        """Post in the socket's language: a refusal with figures is worded when it is raised."""
        if not account_sockets.session_alive(self.scope):
            raise _AccessEnded
        with translation.override(self.chat_language()):
            chat_post(
                user=self.scope["user"],
                text=data.get("text", ""),
                quick=data.get("quick", ""),
                invite_code=getattr(self, "invite", None),
                **place,
            )

    async def chat_send_error(self, exc: ServiceError) -> None:
        with translation.override(self.chat_language()):
            if self.chat_json():
                text = json.dumps(exc.to_json())
            else:
                text = rendering.error_html(exc.message, exc.code)
        await self.send(text_data=text)

    # ------------------------------------------------------------ group messages

    async def chat_message(self, event: dict) -> None:
        if self.chat_place() is None or event["channel"] != self.chat_channel():
            return
        if self.scope["user"].pk in event.get("removed", ()):
            # Removed from this private lobby, and the lobby's own message of it (which
            # closes the socket) was lost: the chat does not wait for the next one.
            await self.close(code=close_codes.NOT_FOUND)
            return
        if not self.chat_prefs_loaded:
            await self.chat_load_prefs()
        if not self.chat_enabled or event["author"] in self.chat_muted:
            return
        with translation.override(self.chat_language()):
            item = rendering.item_of_event(event)
            if self.chat_json():
                text = json.dumps(
                    {
                        "chat": {
                            "id": item["id"],
                            "channel": event["channel"],
                            "author": item["name"],
                            "text": item["text"],
                            "quick": event["quick"] or None,
                            "at": event["at"],
                        }
                    }
                )
            else:
                text = rendering.pushed_message_html(
                    item, channel=event["channel"], viewer=self.scope["user"].pk
                )
        await self.send(text_data=text)

    async def chat_hidden(self, event: dict) -> None:
        if self.chat_place() is None or event["channel"] != self.chat_channel():
            return
        if self.chat_json():
            await self.send(text_data=json.dumps({"chat_hidden": {"id": event["id"]}}))
        else:
            await self.send(text_data=rendering.removed_html(event["id"]))

    async def chat_prefs(self, event: dict) -> None:
        """The reader muted someone or switched the chat: filter anew, redraw the panel."""
        place = self.chat_place()
        if place is None:
            return
        html = await in_db_thread(self._chat_reload)(place)
        if html:
            await self.send(text_data=html)

    async def chat_load_prefs(self) -> None:
        await in_db_thread(self._chat_reload)(None)

    def _chat_reload(self, place: dict | None) -> str | None:
        user = self.scope["user"]
        user.refresh_from_db(fields=["chat_enabled"])
        self.chat_enabled = user.chat_enabled
        self.chat_muted = frozenset(muted_ids(user))
        self.chat_prefs_loaded = True
        if place is None or self.chat_json():
            return None
        with translation.override(self.chat_language()):
            context = rendering.panel_context(
                user=user, player=self.chat_player(), over=False, **place
            )
            return rendering.panel_html(context, oob=True)
