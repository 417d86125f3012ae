"""When the bot runner next looks at a game (``Game.bot_due_at``), when the turn clock starts,
and the runner's own writes."""

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import clock, engine, presence
from games.models import Game
from games.presence import Seats
from games.services import locks


def restore(game: Game) -> engine.Game:
    """The engine game of ``game``'s snapshot, with a fresh secret seed for what is to come."""
    return engine.from_snapshot(game.snapshot, seed=secrets.randbits(64))


def schedule(game: Game, state: engine.Game, seats: Seats, *, restart=False, mover=None):
    """Set ``game.bot_due_at`` (not saved); ``restart``: the turn clock starts again. Returns
    the GamePlayer of ``mover`` (a player who acted) if its ``timeouts`` must be reset."""
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
    """The ``bot_due_at`` of ``game`` at ``now``: after the bot delay for a bot (or an away
    human), else when the human to act turns away, runs out of time or (correspondence) is
    to be reminded; ``None``: nobody."""
    if game.status != Game.Status.PLAYING:
        return None
    seats = seats or presence.seats_of(game)
    players = seats.by_seat()
    waiting = clock.waiting_for(game, state, players)
    if waiting is None:
        return None
    soon = now + timedelta(seconds=settings.SKYJO_BOT_DELAY)
    if not waiting:  # every human ready: the runner deals
        return soon
    times = []
    for seat in waiting:
        player = players[seat]
        if presence.is_bot(player):
            return soon
        due = presence.away_at(player, grace=seats.grace, since=game.created_at)
        ends = clock.deadline(game, seats.players, player)
        if ends is not None:
            due = min(due, ends)
        remind = clock.reminder_at(game, seats.players, player) if seats.correspondence else None
        if remind is not None and remind > now:
            due = min(due, remind)
        times.append(max(due, soon))
    return min(times, default=None)


def game_lock_due(*, game_id: int, now) -> tuple[Game, engine.Game] | None:
    """For the bot runner: game ``game_id`` locked and its engine game, or ``None`` when it is
    held elsewhere or not due."""
    game = locks.due_game(game_id, now)
    return None if game is None else (game, restore(game))


def game_reschedule(*, game_id: int, delay: float | None = None, now=None) -> None:
    """The runner looks at game ``game_id`` again in ``delay`` seconds, or when its state says
    (as of ``now``, default now)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = locks.game(game_id)
        if game.is_over:
            game.bot_due_at = None
        elif delay is None:
            game.bot_due_at = next_look(game, restore(game), now)
        else:
            game.bot_due_at = now + timedelta(seconds=delay)
        game.save(update_fields=["bot_due_at"])
