"""The chat of the lobby and game sockets (a mixin of web.sockets.base.Socket): frames to
chat.services.chat_post, a refusal to this socket only; chat.publish's messages filtered by the
reader's mutes and switch. ``game_id`` and ``seat`` (or ``lobby_id``) say where it is."""

from __future__ import annotations

import json

from django.utils import timezone, translation

from chat.models import Message
from chat.selectors import muted_ids
from chat.services import chat_post
from core import close_codes
from core.db import in_db_thread
from core.errors import DATABASE_DOWN, ServiceError, Unavailable
from web.chat import rendering


class ChatSocket:
    zone = None  # the reader's time zone (set by the base socket)
    chat_heading = None  # the panel's own name when it is redrawn (None: its channel's)

    chat_prefs_loaded = False
    chat_enabled = True
    chat_muted: frozenset = frozenset()

    def chat_place(self) -> dict | None:
        if not self.accepted or self.closed:
            return None
        if getattr(self, "game_id", None) is not None:
            return {"game_id": self.game_id}
        if getattr(self, "lobby_id", None) is not None:
            return {"lobby_id": self.lobby_id}
        return None

    def chat_player(self) -> bool:
        return getattr(self, "game_id", None) is None or getattr(self, "seat", None) is not None

    def chat_channel(self) -> str:
        return Message.Channel.PLAYERS if self.chat_player() else Message.Channel.SPECTATORS

    async def chat_receive(self, data: dict) -> None:
        place = self.chat_place()
        if place is None:
            return
        try:
            await in_db_thread(self._chat_post)(data, place)
        except ServiceError as exc:  # a ChatError, or NotFound: the place is no longer theirs
            await self.send_error(exc, rendering.error_html)
        except DATABASE_DOWN as exc:
            await self.failed(exc, "chat")
            await self.send_error(Unavailable(), rendering.error_html)

    def _chat_post(self, data: dict, place: dict) -> None:
        # A refusal with figures is worded here.
        with translation.override(self.language), timezone.override(self.zone):
            chat_post(
                user=self.user,
                text=data.get("text", ""),
                quick=data.get("quick", ""),
                invite_code=getattr(self, "invite", None),
                **place,
            )

    async def chat_message(self, event: dict) -> None:
        if self.chat_place() is None or event["channel"] != self.chat_channel():
            return
        if self.user.pk in event.get("removed", ()):
            await self.close(code=close_codes.NOT_FOUND)
            return
        if not self.chat_prefs_loaded:
            await in_db_thread(self._chat_reload)(None)
        if not self.chat_enabled or event["author"] in self.chat_muted:
            return
        with translation.override(self.language), timezone.override(self.zone):
            item = rendering.item_of_event(event)
            if self.json_mode:
                chat = {
                    "id": item["id"],
                    "channel": event["channel"],
                    "author": item["name"],
                    "text": item["text"],
                    "quick": event["quick"] or None,
                    "at": event["at"],
                }
                text = json.dumps({"chat": chat})
            else:
                text = rendering.pushed_message_html(
                    item, channel=event["channel"], viewer=self.user.pk
                )
        await self.send(text_data=text)

    async def chat_hidden(self, event: dict) -> None:
        if self.chat_place() is None or event["channel"] != self.chat_channel():
            return
        if self.json_mode:
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

    def _chat_reload(self, place: dict | None) -> str | None:
        user = self.user
        user.refresh_from_db(fields=["chat_enabled"])
        self.chat_enabled = user.chat_enabled
        self.chat_muted = frozenset(muted_ids(user))
        self.chat_prefs_loaded = True
        if place is None or self.json_mode:
            return None
        with translation.override(self.language), timezone.override(self.zone):
            context = rendering.panel_context(
                user=user, player=self.chat_player(), over=False, heading=self.chat_heading, **place
            )
            return rendering.panel_html(context, oob=True)
