"""When the bot runner (games.autoplay) next looks at a game (``Game.bot_due_at``), the turn
clock's start (``Game.turn_started_at``), and the runner's own writes."""

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games import clock, engine, presence
from games.models import Game, GamePlayer
from games.presence import Seats
from games.services import locks


def restore(game: Game) -> engine.Game:
    """The engine game of ``game``'s snapshot; what is still to come (a reshuffle, the next
    deal) gets a fresh secret seed."""
    return engine.from_snapshot(game.snapshot, seed=secrets.randbits(64))


def schedule(game: Game, state: engine.Game, seats: Seats, *, restart=False, mover=None):
    """Set ``game.bot_due_at`` (not saved). ``restart``: what the game waits for changed
    (clock.turn_of), the turn clock starts again. ``mover``: the seat of a player who acted
    themself, which ends their run of timeouts: returns that GamePlayer row if its
    ``timeouts`` must be written as 0 (after the game row: the lock order), else ``None``."""
    now = timezone.now()
    if restart:
        game.turn_started_at = now
    reset = None
    if mover is not None:
        player = next(p for p in seats.players if p.seat == mover)
        if player.timeouts:
            player.timeouts, reset = 0, player
    game.bot_due_at = next_look(game, state, now, seats)
    return reset


def next_look(game: Game, state: engine.Game, now, seats: Seats | None = None):
    """The ``bot_due_at`` of ``game`` in ``state`` at ``now`` (``None``: nobody to wait for):
    after the bot delay when a bot is to act (or a human already away), else the moment the
    human to act would count as away or run out of time."""
    if game.status != Game.Status.PLAYING:
        return None
    seats = seats or presence.seats_of(game)
    ends = clock.deadline(game, seats.players)
    players = seats.by_seat()
    waiting = clock.waiting_for(game, state, players)
    if waiting is None:
        return None
    soon = now + timedelta(seconds=settings.SKYJO_BOT_DELAY)
    if not waiting:  # a round over with every human ready: the runner deals (game_set_ready)
        return soon
    times = []
    for seat in waiting:
        player = players[seat]
        if presence.is_bot(player):
            return soon
        due = presence.away_at(player, grace=seats.grace, since=game.created_at)
        if ends is not None:
            due = min(due, ends)
        times.append(max(due, soon))
    return min(times, default=None)


def game_lock_due(*, game_id: int, now) -> tuple[Game, engine.Game] | None:
    """For the bot runner, inside its transaction: game ``game_id`` locked (locks.due_game)
    and its engine game, or ``None`` when it is held elsewhere or not due."""
    game = locks.due_game(game_id, now)
    return None if game is None else (game, restore(game))


def game_reschedule(*, game_id: int, delay: float | None = None) -> None:
    """The runner looks at game ``game_id`` again in ``delay`` seconds, or (no delay) when its
    state says (:func:`next_look`); never once it is over."""
    with transaction.atomic():
        game = locks.game(game_id)
        if game.is_over:
            game.bot_due_at = None
        elif delay is None:
            game.bot_due_at = next_look(game, restore(game), timezone.now())
        else:
            game.bot_due_at = timezone.now() + timedelta(seconds=delay)
        game.save(update_fields=["bot_due_at"])


def game_seat_timed_out(*, game_id: int, seat: int) -> None:
    """The turn clock ran out on ``seat``: one more timeout in a row. The runner calls it in
    its transaction before the step that ends the turn, whose frame then shows the seat away."""
    with transaction.atomic():
        locks.game(game_id)
        GamePlayer.objects.filter(game_id=game_id, seat=seat, user__isnull=False).update(
            timeouts=F("timeouts") + 1
        )
