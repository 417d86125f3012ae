"""The bot runner of a server process (SKYJO_AUTOPLAY): an asyncio task that plays the due turns,
steps the tournaments (once a second), then one finished game's analysis and one analysed
game's puzzles, for ever; and beside it the mailer, a task of its own that sends the
notifications due (notifications.outbox), so that a slow mail server never holds a turn."""

import asyncio
import logging
import time
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from channels.middleware import BaseMiddleware
from django.conf import settings
from django.db import close_old_connections

from analysis.services import analysis_tick
from core.errors import DATABASE_DOWN, one_line
from games import autoplay
from notifications import outbox
from puzzles.background import puzzles_tick
from tournaments.services import tournaments_tick

log = logging.getLogger("games.autoplay")

TOURNAMENT_EVERY = 1.0  # seconds between two steps of the tournaments
_tournaments_at = 0.0


MAIL_EVERY = 1.0  # seconds between two looks at the outbox


async def run_forever(interval: float | None = None, step=None, name="skyjo-bot-runner") -> None:
    """``step`` (default :func:`_tick`) every ``interval`` seconds in a thread of its own, for
    ever; an error is logged and the loop goes on."""
    interval = interval if interval is not None else settings.SKYJO_AUTOPLAY_INTERVAL
    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
    tick = sync_to_async(step or _tick, thread_sensitive=False, executor=executor)
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
                message = "bot runner: the database failed, trying every %s s: %s"
                log.warning(message, interval, one_line(exc))
                down = True
        except Exception:
            log.exception("bot runner: a pass failed")
        await asyncio.sleep(interval)


def _tick() -> None:
    close_old_connections()
    try:
        while autoplay.play_due_turns() >= autoplay.BATCH:  # a backlog: go on at once
            pass
        _tournaments()
        analysis_tick()  # then one finished game's post-game analysis (analysis/)
        puzzles_tick()  # and the puzzles of one analysed game (puzzles/)
    finally:
        close_old_connections()  # as after a request: CONN_MAX_AGE=0 closes it


def _mail_tick() -> None:
    close_old_connections()
    try:
        outbox.digest_tick()  # the daily digests, looked for once an hour (notifications/)
        while outbox.send_due() >= outbox.BATCH:  # the e-mails and pushes due
            pass
    finally:
        close_old_connections()


def _tournaments() -> None:
    global _tournaments_at
    if time.monotonic() - _tournaments_at >= TOURNAMENT_EVERY:
        _tournaments_at = time.monotonic()
        tournaments_tick()


_task: asyncio.Task | None = None
_mailer: asyncio.Task | None = None


def ensure_started() -> asyncio.Task | None:
    """Start the runner and the mailer on this process's running event loop, once
    (SKYJO_AUTOPLAY=false: neither); returns the runner's task."""
    global _task, _mailer
    if not settings.SKYJO_AUTOPLAY:
        return None
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    if _task is not None and not _task.done() and _task.get_loop() is loop:
        return _task
    _task = loop.create_task(run_forever(), name="skyjo-bot-runner")
    _mailer = loop.create_task(
        run_forever(MAIL_EVERY, _mail_tick, "skyjo-mailer"), name="skyjo-mailer"
    )
    log.info("bot runner started")
    return _task


def start_when_server_runs() -> None:
    """Under Daphne: start the runner once the reactor runs (due turns resume at a restart)."""
    import sys

    reactor = sys.modules.get("twisted.internet.reactor")
    if reactor is None:
        return
    reactor.callWhenRunning(lambda: reactor.callLater(0, ensure_started))


class AutoplayMiddleware(BaseMiddleware):
    """ASGI wrapper: makes sure the runner runs (idempotent) when a connection comes in."""

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            ensure_started()
        return await self.inner(scope, receive, send)
