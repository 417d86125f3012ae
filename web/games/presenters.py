"""Engine views as the sockets send them (a message's public view, a seat's view, a JSON frame;
cached per game and version for all the sockets), and the context of a lobby's page and seats."""

import json
from dataclasses import replace

from core.caches import BoundedCache
from games import selectors
from games.bots import LEVELS
from games.engine import View
from games.labels import BOT_LEVEL_LABELS
from games.models import MIN_SEATS, Lobby
from games.publish import frame_parts, message_data


def as_seat(public: View, seat: int | None, drawn: int | None = None) -> View:
    """``public`` (a spectator view) as ``seat`` sees it, given that seat's own drawn card."""
    if seat is None:
        return public
    mine = drawn if public.drawing and public.current == seat else None
    return replace(public, seat=seat, drawn=mine)


def public_of(view: View) -> View:
    """What everyone may see of ``view``: the same view without its owner's drawn card."""
    return replace(view, seat=None, drawn=None)


def cached(cache: BoundedCache, key, make):
    """``cache``'s value for ``key``, made by ``make()`` and kept when missing."""
    value = cache.get(key)
    if value is None:
        value = make()
        cache.put(key, value)
    return value


_messages = BoundedCache(1024, "presenters.messages")
_frames = BoundedCache(1024, "presenters.json_frames")


def view_of_message(message: dict) -> tuple[View, dict]:
    """The public view and meta of a ``game.updated`` message (games.publish), read once per
    version for all the sockets of the process."""
    key = (message["game"], message["version"])
    return cached(_messages, key, lambda: message_data(message)[:2])


def json_frame(view: View, version: int, meta: dict) -> str:
    """The JSON frame of ``view`` (docs/protocol.md): its public parts made once per version."""
    key = (meta["game"], version, repr(meta.get("clock")))
    head, tail = cached(_frames, key, lambda: frame_parts(view, version, meta))
    return head + json.dumps(view.drawn) + tail


LEVEL_CHOICES = [(level, BOT_LEVEL_LABELS[level]) for level in LEVELS]


def lobby_context(
    lobby: Lobby, user, invite_code: str | None = None, removed: frozenset[int] | None = None
) -> dict:
    """What games/lobby.html and games/partials/lobby_seats.html show ``user``; ``removed``:
    the lobby's removed users (selectors.lobby_removed_ids), if read already."""
    seats = list(lobby.seats.all())
    my_seat = next((s for s in seats if s.user_id == user.pk), None)
    taken = sum(not s.is_empty for s in seats)
    return {
        "lobby": lobby,
        "seats": seats,
        "my_seat": my_seat,
        "is_host": lobby.host_id == user.pk,
        "taken": taken,
        "can_start": taken >= MIN_SEATS,
        "is_full": taken >= lobby.seat_count,
        "invite_code": invite_code,
        "removed": selectors.was_removed(lobby, user, removed),
        "bot_levels": LEVEL_CHOICES,
    }
