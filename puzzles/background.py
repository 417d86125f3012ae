"""Puzzles made in the background: the bot runner's hook (web.runner) examines one analysed
public game at a time in the analysis worker's process (analysis.worker; with
SKYJO_ANALYSIS_WORKER=false, in the runner's thread) and stores what it finds as
``manage.py make_puzzles`` does."""

import logging
import time
from concurrent.futures import BrokenExecutor, Future

from django.conf import settings

from analysis import worker
from games.records import game_record
from puzzles import generation, selectors
from puzzles.services import found_store

log = logging.getLogger(__name__)

IDLE_LOOK = 30.0  # seconds between two looks for a game to examine when none waited
SAMPLES = generation.CONFIRM_SAMPLES

_pending: tuple[int, Future] | None = None  # the game in the worker
_next_look = 0.0


def puzzles_tick() -> None:
    """Store the puzzles the worker found in the game it examined, or hand it the next game to
    examine. A game whose examination fails is stored as examined with none."""
    global _pending, _next_look
    if not settings.SKYJO_PUZZLES_BACKGROUND:
        return
    if _pending is not None:
        game_id, future = _pending
        if not future.done():
            return
        _pending = None
        try:
            found = future.result()
        except BrokenExecutor:  # the worker died (not the game's fault): examined again later
            log.exception("puzzles: the worker stopped while examining game %s", game_id)
            worker.discard()
            return
        except Exception:
            log.exception("puzzles: game %s failed", game_id)
            found = []
        found_store(game_id=game_id, found=found)
        return
    now = time.monotonic()
    if now < _next_look:
        return
    rows = selectors.games_to_examine(limit=1)
    if not rows:
        _next_look = now + IDLE_LOOK
        return
    game_id, record, data = rows[0].game_id, game_record(rows[0].game), rows[0].data
    if settings.SKYJO_ANALYSIS_WORKER:
        _pending = (game_id, worker.run(generation.candidates, record, data, samples=SAMPLES))
        return
    try:
        found = generation.candidates(record, data, samples=SAMPLES)
    except Exception:
        log.exception("puzzles: game %s failed", game_id)
        found = []
    found_store(game_id=game_id, found=found)


def forget() -> None:
    """Drop the game in the worker and look at once next time (tests; a fresh start)."""
    global _pending, _next_look
    _pending, _next_look = None, 0.0
