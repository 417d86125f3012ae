"""Writes of the post-game analysis: computing and storing it, in the background only.

The bot runner (``games/autoplay.py``) calls :func:`analysis_run_due` once a pass: it takes the
most recently finished game whose analysis is missing or of an older version, computes it
outside any transaction (the record is read once; nothing is locked while it runs) and stores
it. Never called while a game runs: only finished games are picked (their record is public),
and never from a request.
"""

import logging
import time

from django.db import transaction

from analysis.core import VERSION, analyse_record
from analysis.models import GameAnalysis
from games.models import Game

log = logging.getLogger(__name__)


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
    with transaction.atomic():
        analysis, _ = GameAnalysis.objects.update_or_create(
            game_id=game_id, defaults={"version": VERSION, "data": data, "seconds": seconds}
        )
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
    except Exception:
        log.exception("analysis: a pass failed")
        return 0
