"""Running games held in this process, so that an ordinary move reads nothing before its
conditional write: a game's row (its lobby read with it), its engine state and its seats, as last
committed here. A hold is good while the row's ``version`` and ``seats_version`` are still what
it holds: the move's conditional write checks both, and a lost write reads everything anew.

Every write to a game's seats that a move reads and that makes no new version (a socket opened
or closed, a timeout counted or cleared, a forfeit) goes through :func:`seats_changed`. The
heartbeat's ``last_seen`` writes do not: the seats of a live game are read again once older
than SKYJO_HEARTBEAT, those of a correspondence game at every move (its vacations)."""

import time
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from core.caches import BoundedCache
from core.errors import found
from games import engine, presence
from games.models import Game
from games.presence import Seats
from games.services.schedule import restore

_HELD = BoundedCache(1024, "games.held")


@dataclass(frozen=True, slots=True)
class Held:
    game: Game
    state: engine.Game
    seats: Seats | None  # None: read them at the next move
    version: int  # the game's, when held (the others may be taken and changed since)
    phase: str  # the engine's, likewise


def take(game_id: int, *, fresh: bool = False) -> tuple[Game, engine.Game, Seats]:
    """Game ``game_id``'s row, state and seats, the caller's own to change: taken from the
    hold (which it no longer holds: a racing move of this process reads the saved ones), or
    (``fresh``, or nothing held) as saved. ``NotFound`` if there is no such game."""
    held = None if fresh else _HELD.pop(game_id)
    if held is None:
        row = Game.objects.select_related("lobby").filter(pk=game_id).first()
        row = found(row, _("There is no such game."))
        return row, restore(row), presence.seats_of(row)
    seats = held.seats
    if seats is None or seats.correspondence or _expired(seats):
        seats = presence.seats_of(held.game)
    return held.game, held.state, seats


def peek(game_id: int) -> "Held | None":
    """What is held of game ``game_id``, if anything: read its ``version`` and ``phase`` only
    (the rest may be taken by a move meanwhile)."""
    return _HELD.get(game_id)


def _expired(seats: Seats) -> bool:
    return time.monotonic() - seats.read_at > settings.SKYJO_HEARTBEAT


def hold(game: Game, state: engine.Game, seats: Seats | None = None) -> None:
    """Once the transaction commits, ``game`` (as written), ``state`` and ``seats`` are held
    for the next move. Call it last in the transaction: a move may take them at once after
    the commit, so that no later commit hook of this one may read them."""
    held = Held(game, state, seats, game.version, state.phase)
    transaction.on_commit(lambda: _HELD.put(game.pk, held))


def forget(game_id: int) -> None:
    _HELD.pop(game_id)


def seats_changed(game_id: int, *, user_id: int | None = None) -> None:
    """Count a change of game ``game_id``'s seats that makes no new version (``user_id``: only
    if that user has a seat there), before the seats' own write: the game's row is the first
    lock, as everywhere (core.locks). Every hold of it, in every process, is then stale."""
    rows = Game.objects.filter(pk=game_id)
    if user_id is not None:
        rows = rows.filter(players__user_id=user_id)
    rows.update(seats_version=F("seats_version") + 1)
    forget(game_id)
