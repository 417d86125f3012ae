"""HTML of the chat: the panel and the fragments a socket pushes, from the same templates.
Nothing here marks a user's text safe."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from chat.models import Message
from chat.quick import QUICK
from chat.selectors import messages_for, muted_ids


def item(*, id, author, name, text, quick, at) -> dict:
    """A message for the templates; a quick one in the reader's language (the active one)."""
    if isinstance(at, str):
        at = parse_datetime(at)
    return {
        "id": id,
        "author": author,
        "name": name,
        "text": str(QUICK[quick]) if quick in QUICK else text,
        "at": timezone.localtime(at) if at else None,
    }


def item_of(message: Message) -> dict:
    return item(
        id=message.pk,
        author=message.author_id,
        name=message.author.username,
        text=message.text,
        quick=message.quick,
        at=message.created_at,
    )


def item_of_event(event: dict) -> dict:
    return item(**{k: event[k] for k in ("id", "author", "name", "text", "quick", "at")})


def panel_context(
    *, user, game_id=None, lobby_id=None, player: bool = True, over: bool = False, heading=None
) -> dict:
    """What the chat panel shows ``user``: their channel of a game (``player`` or not; in a
    lobby, always) or the lobby's chat; a player of a finished game also reads the spectators'.
    ``heading`` names the panel in place of its channel's name (a tournament's room)."""
    channel = Message.Channel.PLAYERS if player else Message.Channel.SPECTATORS
    enabled = bool(getattr(user, "chat_enabled", True))
    context = {
        "enabled": enabled,
        "channel": channel,
        "viewer": user.pk,
        "game_id": game_id,
        "lobby_id": lobby_id,
        "heading": heading,
        "quick": list(QUICK.items()),
        "messages": [],
        "spectator_messages": None,
    }
    if not enabled:
        return context
    muted = muted_ids(user)
    where = {"game_id": game_id} if game_id is not None else {"lobby_id": lobby_id}

    def items(channel):
        return [item_of(m) for m in messages_for(user=user, channel=channel, muted=muted, **where)]

    context["messages"] = items(channel)
    if game_id is not None and player and over:
        context["spectator_messages"] = items(Message.Channel.SPECTATORS)
    return context


def panel_html(context: dict, *, oob: bool = False) -> str:
    return render_to_string("chat/panel.html", {**context, "oob": oob})


def pushed_message_html(message: dict, *, channel: str, viewer: int) -> str:
    """A new message, appended to the log of its channel (htmx out-of-band)."""
    return render_to_string(
        "chat/pushed.html", {"m": message, "channel": channel, "viewer": viewer}
    )


def removed_html(message_id: int) -> str:
    return f'<div id="chat-msg-{int(message_id)}" hx-swap-oob="delete"></div>'


def error_html(message: str, code: str) -> str:
    return render_to_string("chat/error.html", {"message": message, "code": code})
