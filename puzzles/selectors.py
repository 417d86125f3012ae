"""Reads of the puzzles: a player's next puzzle, the puzzle of the day, ratings, attempts."""

import datetime
import hashlib

from django.db.models import Max, Min, Q, Subquery

from analysis import selectors as analysis_selectors
from analysis.core import VERSION
from puzzles.models import Attempt, ExaminedGame, Puzzle, Solver


def solver_of(user) -> Solver:
    """The puzzle rating of ``user``: the stored one, else a newcomer's (not saved)."""
    if not user.is_authenticated:
        return Solver()
    return Solver.objects.filter(user=user).first() or Solver(user=user)


def puzzle_by_id(puzzle_id: int) -> Puzzle | None:
    return Puzzle.objects.filter(pk=puzzle_id).first()


def attempt_of(user, puzzle: Puzzle) -> Attempt | None:
    if not user.is_authenticated:
        return None
    return Attempt.objects.filter(user=user, puzzle=puzzle).first()


def next_puzzle(user, rating: float) -> Puzzle | None:
    """The untried puzzle whose rating is nearest ``rating``, else None.

    One statement: two walks of the (rating, id) index, the first untried at or above and the
    first untried below, the nearer kept (as near: the lower id). "Untried" is ``NOT IN`` the player's puzzle ids, not
    ``NOT EXISTS``: PostgreSQL then hashes those ids once per walk instead of probing the
    attempts' index for every puzzle the walk steps over."""
    tried = Attempt.objects.filter(user=user).values("puzzle_id")
    rows = Puzzle.objects.exclude(pk__in=tried).values("pk")
    above = rows.filter(rating__gte=rating).order_by("rating", "pk")[:1]
    below = rows.filter(rating__lt=rating).order_by("-rating", "-pk")[:1]
    found = Puzzle.objects.filter(Q(pk=Subquery(above)) | Q(pk=Subquery(below)))
    return min(found, key=lambda p: (abs(p.rating - rating), p.pk), default=None)


def puzzle_of_the_day(day: datetime.date) -> Puzzle | None:
    """The same puzzle for everyone on ``day``: the first id at or after a point drawn from
    the day between the lowest and highest ids."""
    bounds = Puzzle.objects.aggregate(low=Min("pk"), high=Max("pk"))
    if bounds["low"] is None:
        return None
    digest = hashlib.sha256(day.isoformat().encode()).digest()
    point = bounds["low"] + int.from_bytes(digest[:8], "big") % (bounds["high"] - bounds["low"] + 1)
    return Puzzle.objects.filter(pk__gte=point).order_by("pk").first()


def games_to_examine(*, limit: int) -> list:
    """Analysed public games not yet examined for puzzles under this analysis version, oldest
    first: rows of ``analysis.selectors.public_analyses`` (each with its ``game``)."""
    done = ExaminedGame.objects.filter(version=VERSION).values("game_id")
    return list(analysis_selectors.public_analyses(exclude_game_ids=done, limit=limit))
