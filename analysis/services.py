"""Writes of the post-game analysis: computing and storing it, in the background only.

The bot runner (``games/autoplay.py``) calls :func:`analysis_tick` once a pass: it takes the
most recently finished game whose analysis is missing or of an older version, computes it
outside any transaction (the record is read once; nothing is locked while it runs) and stores
it; when no game was due it looks again only after ``IDLE_LOOK`` seconds (the query scans the
finished games). Two processes that analyse the same game at once store one result. Never called while a game runs: only finished games are picked (their record is public),
and never from a request.
"""

import logging
import time

from django.db import IntegrityError, transaction

from analysis.core import VERSION, analyse_record
from analysis.models import GameAnalysis
from games.errors import DATABASE_DOWN, one_line
from games.models import Game

log = logging.getLogger(__name__)

IDLE_LOOK = 2.0
_next_look = 0.0


def analysis_compute(*, game_id: int) -> GameAnalysis | None:
    """Compute and store the analysis of a finished game (``None`` if it is not finished)."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return None
    humans = list(game.players.filter(bot_level="").values_list("seat", flat=True))
    started = time.perf_counter()
    try:
        data = analyse_record(game.record, seats=humans) if humans else None
    except Exception:
        log.exception("analysis: game %s failed", game_id)
        data = None
    seconds = time.perf_counter() - started
    values = {"version": VERSION, "data": data, "seconds": seconds}
    try:
        with transaction.atomic():
            analysis, _ = GameAnalysis.objects.update_or_create(game_id=game_id, defaults=values)
    except IntegrityError:  # another runner stored it just now: the same result
        analysis = GameAnalysis.objects.get(game_id=game_id)
    return analysis


def analysis_run_due(*, limit: int = 1) -> int:
    """Analyse up to ``limit`` finished games that lack an analysis of this version, the most
    recently finished first; returns how many. Errors are logged, never raised."""
    try:
        due = list(
            Game.objects.filter(status=Game.Status.FINISHED)
            .exclude(analysis__version=VERSION)
            .order_by("-finished_at", "-pk")
            .values_list("pk", flat=True)[:limit]
        )
        for game_id in due:
            analysis_compute(game_id=game_id)
        return len(due)
    except DATABASE_DOWN as exc:  # the database is away: one line, the runner says the rest
        log.warning("analysis: the database failed: %s", one_line(exc))
        return 0
    except Exception:
        log.exception("analysis: a pass failed")
        return 0


def analysis_tick() -> None:
    """The bot runner's hook, once a pass: one due game; none due, the next look in
    ``IDLE_LOOK`` seconds."""
    global _next_look
    now = time.monotonic()
    if now < _next_look:
        return
    if analysis_run_due(limit=1) == 0:
        _next_look = now + IDLE_LOOK
