"""The bot runner: plays the turns of bots, and of humans away longer than their lobby's grace.

The database is the queue. Every service that changes a game sets ``Game.bot_due_at`` (see
``services.next_look``): when a bot is to act, after ``SKYJO_BOT_DELAY``; when a human is, at
the moment they would count as away or their turn clock (games.clock) runs out.
:func:`play_due_turns` takes the due games one at a time,
each in its own transaction that holds the game's row lock (``select_for_update(skip_locked=
True)``), so that several runners (one per server process) never look at one game together:
never two moves for one turn. It plays **one step** and the service sets the next due time, so
a bot's draw and its swap are two published moves ``SKYJO_BOT_DELAY`` apart, like a person's.

Every write goes through a service (``game_apply_action``, ``game_set_ready``,
``game_seat_timed_out``, ``game_reschedule``, ``moderation.game_stop``). A step that fails for a passing reason (a lock, a lost
connection: ``OperationalError``) is tried again at once, up to ``ATTEMPTS`` times; any other
failure looks again after ``RETRY`` seconds. A game in which nobody but bots plays any more (bots
and away humans) is stopped once a round has gone ``STALL_TURNS`` turns: bots that never end a
round must not play for ever.

Every server process runs :func:`run_forever` as an asyncio task (:func:`ensure_started`),
started when Daphne's reactor runs (``skyjo_site.asgi``) or, failing that, on the first
request. No extra worker process is needed.
"""

import asyncio
import logging
import random
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections, transaction
from django.utils import timezone

from analysis.services import analysis_tick
from core.errors import DATABASE_DOWN, ServiceError, one_line
from games import clock, engine, moderation, presence, services
from games.bots import AWAY_LEVEL, get_bot
from games.models import Game

log = logging.getLogger(__name__)

BATCH = 20
RETRY = 5
ATTEMPTS = 3
STALL_TURNS = 1000  # a round of 8 players lasts some 150 turns; the arena caps a game likewise


def play_due_turns(*, now=None, limit: int = BATCH) -> int:
    """Play one step in each game whose ``bot_due_at`` has come (at most ``limit`` games);
    returns how many steps were played. Games another runner holds are skipped."""
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
    """Set the game's next look; if even that fails the game stays due (the next pass)."""
    try:
        services.game_reschedule(game_id=game_id, delay=delay)
    except DATABASE_DOWN as exc:  # the database is away: one line, the game stays due
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
        rows, grace = presence.seats_of(game)
        players = {p.seat: p for p in rows}
        out_of_time = clock.has_run_out(game, rows, now)

        def level_of(seat: int) -> str | None:
            player = players[seat]
            if presence.is_bot(player):
                return player.bot_level or AWAY_LEVEL
            if presence.is_away(player, grace=grace, since=game.created_at, now=now):
                return AWAY_LEVEL
            return AWAY_LEVEL if out_of_time else None

        def timed_out(seat: int) -> bool:  # played because the clock ran out on them
            player = players[seat]
            away = presence.is_away(player, grace=grace, since=game.created_at, now=now)
            return out_of_time and not presence.is_bot(player) and not away

        if all(level_of(seat) for seat in players) and _stalled(state):
            log.warning(
                "bot runner: game %s stopped: round %s has gone %s turns with only bots playing",
                game.pk,
                state.round,
                state.turns,
            )
            moderation.game_stop(game_id=game.pk)
            return 0
        if state.phase == engine.ROUND_OVER:
            waiting = clock.waiting_for(game, state, players)
            if not waiting:  # every human ready (the last one's account is gone): deal
                services.game_set_ready(game_id=game.pk, seat=min(players))
                return 1
            for seat in waiting:
                if level_of(seat):
                    if timed_out(seat):
                        services.game_seat_timed_out(game_id=game.pk, seat=seat)
                    services.game_set_ready(game_id=game.pk, seat=seat)
                    return 1
        elif state.phase in (engine.REVEAL_PHASE, engine.PLAY, engine.FINAL):
            seats = state.to_act()
            bots_first = sorted(seats, key=lambda s: not presence.is_bot(players[s]))
            for seat in bots_first:
                level = level_of(seat)
                if level:
                    step = _choose(level, state, seat)
                    late = timed_out(seat)
                    if late and clock.finishes_turn(state, seat, step):
                        services.game_seat_timed_out(game_id=game.pk, seat=seat)
                    services.game_apply_action(
                        game_id=game.pk,
                        seat=seat,
                        action=step.to_json(),
                        version=game.version,
                        timed_out=late,
                    )
                    return 1
        # Nobody for the runner to play (a human came back): look again when it may change.
        services.game_reschedule(game_id=game.pk)
        return 0


def _stalled(state: engine.Game) -> bool:
    return state.turns >= STALL_TURNS


def _choose(level: str, state: engine.Game, seat: int) -> engine.Action:
    rng = random.Random()
    step = get_bot(level).choose(engine.view_of(state, seat), rng)
    legal = state.legal_actions(seat)
    if step not in legal:  # a bot bug must not stop the game
        log.error("bot runner: %s bot chose %s, not legal for seat %s", level, step, seat)
        step = rng.choice(legal)
    return step


async def run_forever(interval: float | None = None) -> None:
    """Call :func:`play_due_turns` every ``interval`` seconds (SKYJO_AUTOPLAY_INTERVAL), for
    ever. An error is logged and the loop goes on."""
    interval = interval if interval is not None else settings.SKYJO_AUTOPLAY_INTERVAL
    # A thread of its own (and so a database connection of its own): the runner never waits
    # behind the consumers' database calls, nor they behind it. Through sync_to_async, not a
    # bare run_in_executor, so that the publishing in that thread (games.publish) hands its
    # messages to this event loop, where the in-memory layer's queues live.
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skyjo-bot-runner")
    tick = sync_to_async(_tick, thread_sensitive=False, executor=executor)
    down = False
    while True:
        try:
            await tick()
            if down:
                log.warning("bot runner: the database answers again")
                down = False
        except asyncio.CancelledError:
            raise
        except DATABASE_DOWN as exc:  # a restart or failover: one line, then keep trying
            if not down:
                log.warning(
                    "bot runner: the database failed, trying every %s s: %s",
                    interval,
                    one_line(exc),
                )
                down = True
        except Exception:
            log.exception("bot runner: a pass failed")
        await asyncio.sleep(interval)


def _tick() -> None:
    close_old_connections()
    try:
        while play_due_turns() >= BATCH:  # a backlog: go on at once
            pass
        analysis_tick()  # then one finished game's post-game analysis (analysis/)
    finally:
        close_old_connections()  # as after a request: CONN_MAX_AGE=0 closes it


_task: asyncio.Task | None = None


def ensure_started() -> asyncio.Task | None:
    """Start the runner on this process's running event loop, once (SKYJO_AUTOPLAY=false: no)."""
    global _task
    if not settings.SKYJO_AUTOPLAY:
        return None
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    if _task is not None and not _task.done() and _task.get_loop() is loop:
        return _task
    _task = loop.create_task(run_forever(), name="skyjo-bot-runner")
    log.info("bot runner started")
    return _task


def start_when_server_runs() -> None:
    """Under Daphne (``daphne`` or ``manage.py runserver``): start the runner as soon as the
    Twisted asyncio reactor runs, so due turns resume after a restart with no request."""
    import sys

    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None:
        return
    reactor.callWhenRunning(lambda: reactor.callLater(0, ensure_started))


class AutoplayMiddleware:
    """ASGI wrapper: makes sure the runner runs (idempotent) when a connection comes in."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            ensure_started()
        return await self.app(scope, receive, send)
