"""Telling open pages about the chat, after the commit (called by chat.services).

Chat messages travel in the group of their game or lobby (games.publish) as ``chat.message``
and ``chat.hidden``; a change of a reader's own settings (mutes, chat off) goes to that user's
sockets (accounts.access.user_group) as ``chat.prefs``. Nothing here is rendered: each socket
renders for its own reader (language, mutes, channel) in web.sockets.chat. A game move never
passes through here.
"""

from accounts.access import user_group
from games import publish as game_publish


def _group(message) -> str:
    if message.game_id is not None:
        return game_publish.game_group(message.game_id)
    return game_publish.lobby_group(message.lobby_id)


def message_event(message) -> dict:
    return {
        "type": "chat.message",
        "id": message.pk,
        "channel": message.channel,
        "author": message.author_id,
        "name": message.author.username,
        "text": message.text,
        "quick": message.quick,
        "at": message.created_at.isoformat(),
    }


def message_posted(message, *, removed: list[int] | None = None) -> None:
    """``removed``: the users a private lobby's host removed; their sockets close on it."""
    event = message_event(message)
    if removed:
        event["removed"] = list(removed)
    # The layer's one way out (non-blocking on a consumer's database thread).
    game_publish._send(_group(message), event)


def message_hidden(message) -> None:
    game_publish._send(
        _group(message), {"type": "chat.hidden", "id": message.pk, "channel": message.channel}
    )


def prefs_changed(user_id: int) -> None:
    game_publish._send(user_group(user_id), {"type": "chat.prefs"})
