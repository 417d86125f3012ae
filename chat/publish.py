"""Chat events for open pages, sent after the commit: messages in their game's or lobby's
group, a reader's own settings to their sockets; each socket renders for its reader."""

from accounts.access import user_group
from games import publish as game_publish


def _group(message) -> str:
    if message.game_id is not None:
        return game_publish.game_group(message.game_id)
    return game_publish.lobby_group(message.lobby_id)


def message_posted(message, *, removed: list[int] | None = None) -> None:
    """``removed``: the users a private lobby's host removed; their sockets close on it."""
    event = {
        "type": "chat.message",
        "id": message.pk,
        "channel": message.channel,
        "author": message.author_id,
        "name": message.author.username,
        "text": message.text,
        "quick": message.quick,
        "at": message.created_at.isoformat(),
    }
    if removed:
        event["removed"] = list(removed)
    game_publish._send(_group(message), event)


def message_hidden(message) -> None:
    game_publish._send(
        _group(message), {"type": "chat.hidden", "id": message.pk, "channel": message.channel}
    )


def prefs_changed(user_id: int) -> None:
    game_publish._send(user_group(user_id), {"type": "chat.prefs"})
