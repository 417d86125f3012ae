"""The bot runner's step: play the turns of bots, and of humans away or out of time. Each due
game (``Game.bot_due_at``) gets one step in its own transaction holding its locks (skip locked),
so that runners in several processes never play one turn twice."""

import logging
import random

from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone

from core.errors import DATABASE_DOWN, ServiceError, one_line
from games import clock, engine, presence, services
from games.bots import AWAY_LEVEL
from games.bots import worker as bot_worker
from games.models import Game, Lobby

log = logging.getLogger(__name__)

BATCH = 20
RETRY = 5
ATTEMPTS = 3
STALL_TURNS = 1000


def play_due_turns(*, now=None, limit: int = BATCH) -> int:
    """Play one step in each of at most ``limit`` due games; returns how many were played."""
    now = now or timezone.now()
    due = list(
        Game.objects.filter(status=Game.Status.PLAYING, bot_due_at__lte=now)
        .order_by("bot_due_at")
        .values_list("pk", flat=True)[:limit]
    )
    return sum(_play_with_retries(game_id, now) for game_id in due)


def _play_with_retries(game_id: int, now) -> int:
    for attempt in range(1, ATTEMPTS + 1):
        try:
            return _play_one(game_id, now)
        except ServiceError as exc:  # refused, nothing changed: look again when the state says
            log.warning("bot runner: game %s: %s", game_id, exc.message)
            return _reschedule(game_id)
        except (OperationalError, InterfaceError) as exc:  # passing: a lock, a lost connection
            transaction.get_connection().close_if_unusable_or_obsolete()
            if attempt < ATTEMPTS:
                log.info("bot runner: game %s: %s; trying again now", game_id, exc)
                continue
            log.warning("bot runner: game %s: %s; trying again in %s s", game_id, exc, RETRY)
            return _reschedule(game_id, RETRY)
        except Exception:
            log.exception("bot runner: game %s failed; trying again in %s s", game_id, RETRY)
            return _reschedule(game_id, RETRY)
    return 0


def _reschedule(game_id: int, delay: float | None = None) -> int:
    try:
        services.game_reschedule(game_id=game_id, delay=delay)
    except DATABASE_DOWN as exc:  # the game stays due
        log.warning("bot runner: game %s: could not reschedule: %s", game_id, one_line(exc))
    except Exception:
        log.exception("bot runner: game %s: could not reschedule", game_id)
    return 0


def _play_one(game_id: int, now) -> int:
    with transaction.atomic():
        due = services.game_lock_due(game_id=game_id, now=now)
        if due is None:  # another runner or a move has it, or it moved on
            return 0
        game, state = due
        seats = presence.seats_of(game)
        players, grace = seats.by_seat(), seats.grace

        def out_of_time(seat: int) -> bool:
            return clock.out_of_time(game, seats.players, players[seat], now)

        def level_of(seat: int) -> str | None:
            player = players[seat]
            if presence.is_bot(player):
                return player.bot_level or AWAY_LEVEL
            if presence.is_away(player, grace=grace, since=game.created_at, now=now):
                return AWAY_LEVEL
            return AWAY_LEVEL if out_of_time(seat) else None

        def timed_out(seat: int) -> bool:  # played because the clock ran out on them
            player = players[seat]
            away = presence.is_away(player, grace=grace, since=game.created_at, now=now)
            return out_of_time(seat) and not presence.is_bot(player) and not away

        def time_ran_out(seat: int) -> None:  # before the step the bot plays for them
            if seats.on_timeout == Lobby.OnTimeout.FORFEIT:
                services.game_seat_forfeit(game_id=game.pk, seat=seat)
            else:
                services.game_seat_timed_out(game_id=game.pk, seat=seat)

        if all(level_of(seat) for seat in players) and state.turns >= STALL_TURNS:
            log.warning(
                "bot runner: game %s stopped: round %s has gone %s turns with only bots playing",
                game.pk,
                state.round,
                state.turns,
            )
            services.game_stop(game_id=game.pk)
            return 0
        if state.phase == engine.ROUND_OVER:
            waiting = clock.waiting_for(game, state, players)
            if not waiting:  # every human ready (the last one's account is gone): deal
                services.game_set_ready(game_id=game.pk, seat=min(players))
                return 1
            for seat in waiting:
                if level_of(seat):
                    if timed_out(seat):
                        time_ran_out(seat)
                    services.game_set_ready(game_id=game.pk, seat=seat)
                    return 1
        elif state.phase in (engine.REVEAL_PHASE, engine.PLAY, engine.FINAL):
            acting = state.to_act()
            bots_first = sorted(acting, key=lambda s: not presence.is_bot(players[s]))
            for seat in bots_first:
                level = level_of(seat)
                if level:
                    step = _choose(level, state, seat)
                    late = timed_out(seat)
                    if late and (seats.correspondence or clock.finishes_turn(state, seat, step)):
                        time_ran_out(seat)
                    services.game_apply_action(
                        game_id=game.pk,
                        seat=seat,
                        action=step.to_json(),
                        version=game.version,
                        timed_out=late,
                        stand_in=not players[seat].bot_level,
                    )
                    return 1
        if seats.correspondence:
            services.game_remind(game=game, seats=seats, now=now)
        services.game_reschedule(game_id=game.pk, now=now)
        return 0


def _choose(level: str, state: engine.Game, seat: int) -> engine.Action:
    rng = random.Random()
    # A searching level (expert) thinks in a worker process, off this process's GIL.
    step = bot_worker.choose(level, engine.view_of(state, seat), rng.getrandbits(64))
    legal = state.legal_actions(seat)
    if step not in legal:  # a bot bug must not stop the game
        log.error("bot runner: %s bot chose %s, not legal for seat %s", level, step, seat)
        step = rng.choice(legal)
    return step
