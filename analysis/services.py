"""Writes of the post-game analysis, from the bot runner only (:func:`analysis_tick`), never
from a request. Two processes analysing one game at once store one result."""

import logging
import time
from concurrent.futures import BrokenExecutor, Future

from django.conf import settings
from django.db import IntegrityError, transaction

from analysis import worker
from analysis.core import VERSION
from analysis.models import GameAnalysis
from core.errors import DATABASE_DOWN, one_line, shutting_down
from games.models import Game
from games.records import game_record, stand_in_steps

log = logging.getLogger(__name__)

IDLE_LOOK = 2.0
_next_look = 0.0


def analysis_compute(*, game_id: int) -> GameAnalysis | None:
    """Compute and store, in this thread, the analysis of a finished game (else ``None``)."""
    inputs = _inputs(game_id)
    if inputs is None:
        return None
    try:
        data, seconds = worker.compute(*inputs)
    except Exception:
        log.exception("analysis: game %s failed", game_id)
        data, seconds = None, 0.0
    return _store(game_id, data, seconds)


def _inputs(game_id: int) -> tuple[dict, list[int], list[int]] | None:
    """The record of finished game ``game_id``, its human seats and the turn steps played for
    them (``games.records.stand_in_steps``); ``None`` if it is not finished, or if its record
    cannot be read (then stored as failed, so no longer due)."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return None
    try:
        record = game_record(game)
    except DATABASE_DOWN:
        raise
    except Exception:
        log.exception("analysis: the record of game %s cannot be read", game_id)
        _store(game_id, None, 0.0)
        return None
    humans = list(game.players.filter(bot_level="").values_list("seat", flat=True))
    return record, humans, stand_in_steps(game)


def _store(game_id: int, data: dict | None, seconds: float) -> GameAnalysis:
    values = {"version": VERSION, "data": data, "seconds": seconds}
    try:
        with transaction.atomic():
            analysis, _ = GameAnalysis.objects.update_or_create(game_id=game_id, defaults=values)
    except IntegrityError:  # another runner stored it just now: the same result
        analysis = GameAnalysis.objects.get(game_id=game_id)
    return analysis


def analysis_run_due(*, limit: int = 1) -> int:
    """Analyse here up to ``limit`` due games, the most recently finished first; returns how
    many. Errors are logged, never raised."""
    try:
        due = _due(limit)
        for game_id in due:
            analysis_compute(game_id=game_id)
        return len(due)
    except DATABASE_DOWN as exc:
        log.warning("analysis: the database failed: %s", one_line(exc))
        return 0
    except Exception:
        log.exception("analysis: a pass failed")
        return 0


def _due(limit: int) -> list[int]:
    return list(
        Game.objects.filter(status=Game.Status.FINISHED)
        .exclude(analysis__version=VERSION)
        .order_by("-finished_at", "-pk")
        .values_list("pk", flat=True)[:limit]
    )


def analysis_tick() -> None:
    """The bot runner's hook, once a pass: store what the worker finished or hand it the next
    due game (without SKYJO_ANALYSIS_WORKER: analyse one here). None due: idle ``IDLE_LOOK`` s."""
    global _next_look
    if not settings.SKYJO_ANALYSIS_WORKER:
        now = time.monotonic()
        if now >= _next_look and analysis_run_due(limit=1) == 0:
            _next_look = now + IDLE_LOOK
        return
    try:
        _worker_tick()
    except DATABASE_DOWN as exc:
        log.warning("analysis: the database failed: %s", one_line(exc))
    except Exception as exc:
        if shutting_down(exc):  # the game is handed to the worker again after the restart
            log.warning("analysis: no game handed to the worker: the server is shutting down")
        else:
            log.exception("analysis: a pass failed")


_pending: tuple[int, Future] | None = None  # the game in the worker


def _worker_tick() -> None:
    global _next_look, _pending
    if _pending is not None:
        game_id, future = _pending
        if not future.done():
            return
        _pending = None
        try:
            data, seconds = future.result()
        except BrokenExecutor:  # the worker died (not the game's fault): a new one tries again
            log.exception("analysis: the worker stopped while analysing game %s", game_id)
            worker.discard()
            return
        except Exception:  # the analysis failed on this game: stored empty, as in a thread
            log.exception("analysis: game %s failed", game_id)
            data, seconds = None, 0.0
        _store(game_id, data, seconds)
        return
    now = time.monotonic()
    if now < _next_look:
        return
    due = _due(1)
    if not due:
        _next_look = now + IDLE_LOOK
        return
    inputs = _inputs(due[0])
    if inputs is None:  # stored without an analysis: the next pass takes the next game
        return
    try:
        _pending = (due[0], worker.submit(*inputs))
    except BrokenExecutor:
        worker.discard()
        raise
