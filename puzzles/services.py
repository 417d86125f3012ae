"""Writes of the puzzles: making them from analysed games (:func:`puzzles_make`), and a
player's answer (:func:`puzzle_answer`), which rates the player and the puzzle with OpenSkill
(the game ratings' model) as a two-sided match: the player wins when they find the answer."""

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext_lazy as _

from analysis.core import VERSION
from core.errors import BadRequest, Busy, NotFound
from games.records import game_record
from puzzles import generation, selectors
from puzzles.models import Attempt, ExaminedGame, Puzzle, Solver
from stats.ratings import MODEL

#: Tries of an answer whose ratings another answer changed meanwhile.
RETRIES = 3


def puzzles_make(
    *,
    samples: int = generation.CONFIRM_SAMPLES,
    min_lost: float = generation.MIN_LOST,
    min_gap: float = generation.MIN_GAP,
    games: int | None = None,
    log=None,
) -> int:
    """Search every analysed public game not yet examined (at most ``games`` of them) for
    puzzles, confirm them on ``samples`` deals and store them; returns how many were made. A
    game is examined once per analysis version, a position stored once."""
    made = examined = 0
    while games is None or examined < games:
        batch = 50 if games is None else min(50, games - examined)
        rows = selectors.games_to_examine(limit=batch)
        if not rows:
            break
        for row in rows:
            found = generation.candidates(
                game_record(row.game), row.data, samples=samples, min_lost=min_lost, min_gap=min_gap
            )
            made += found_store(game_id=row.game_id, found=found)
            examined += 1
            if log is not None:
                log(f"game {row.game_id}: {len(found)} puzzle(s)")
    return made


def found_store(*, game_id: int, found: list[generation.Candidate]) -> int:
    """Store the puzzles ``found`` in game ``game_id`` (a position once) and mark the game
    examined under this analysis version; returns how many are new."""
    made = 0
    with transaction.atomic():
        for c in found:
            fields = {k: v for k, v in c.__dict__.items() if k not in ("step",)}
            _puzzle, created = Puzzle.objects.get_or_create(
                game_id=game_id, step=c.step, defaults=fields
            )
            made += created
        ExaminedGame.objects.update_or_create(
            game_id=game_id, defaults={"version": VERSION, "puzzles": len(found)}
        )
    return made


@dataclass(frozen=True)
class Answer:
    """An answer's result: the attempt, the player's rating and streak after it, and the
    streak that a miss ended (0 if none)."""

    attempt: Attempt
    puzzle: Puzzle
    solver: Solver
    streak_ended: int


class Changed(Exception):
    """Another answer changed a rating read here: try again."""


def puzzle_answer(*, user, puzzle_id: int, code: str, streak: bool = False) -> Answer:
    """``user`` answers puzzle ``puzzle_id`` with the option ``code``; in streak mode
    (``streak``) a solve adds one to their streak and a miss ends it. Refused, with nothing
    changed: an unknown puzzle (``NotFound``), a code that is no option of it or a second
    answer (``BadRequest``)."""
    for _try in range(RETRIES):
        try:
            return _answer(user, puzzle_id, code, streak)
        except Changed:
            continue
    raise Busy(_("Many people answered at once: try again."))


def _answer(user, puzzle_id: int, code: str, streak: bool) -> Answer:
    puzzle = Puzzle.objects.filter(pk=puzzle_id).first()
    if puzzle is None:
        raise NotFound(_("There is no such puzzle."))
    if not isinstance(code, str) or puzzle.option(code) is None:
        raise BadRequest(_("That answer is not one of the choices: choose one of the buttons."))
    if Attempt.objects.filter(user=user, puzzle=puzzle).exists():
        raise BadRequest(_("You have answered this puzzle already."))
    solver, _created = Solver.objects.get_or_create(user=user)
    solved = code == puzzle.answer
    [[me], [it]] = MODEL.rate(
        [
            [MODEL.rating(mu=solver.mu, sigma=solver.sigma)],
            [MODEL.rating(mu=puzzle.rating, sigma=puzzle.rating_sigma)],
        ],
        ranks=[0, 1] if solved else [1, 0],
    )
    ended = 0
    run, best = solver.streak, solver.best_streak
    if streak and solved:
        run += 1
        best = max(best, run)
    elif streak:
        ended, run = run, 0
    try:
        with transaction.atomic():
            attempt = Attempt.objects.create(
                user=user,
                puzzle=puzzle,
                answer=code,
                solved=solved,
                streak=streak,
                rating_before=solver.mu,
                rating_after=me.mu,
            )
            mine = Solver.objects.filter(
                pk=solver.pk, mu=solver.mu, sigma=solver.sigma, streak=solver.streak
            ).update(
                mu=me.mu,
                sigma=me.sigma,
                streak=run,
                best_streak=best,
                tries=F("tries") + 1,
                solves=F("solves") + int(solved),
            )
            theirs = Puzzle.objects.filter(
                pk=puzzle.pk, rating=puzzle.rating, rating_sigma=puzzle.rating_sigma
            ).update(
                rating=it.mu,
                rating_sigma=it.sigma,
                tries=F("tries") + 1,
                solves=F("solves") + int(solved),
            )
            if not (mine and theirs):
                raise Changed
    except IntegrityError:  # the same answer, sent twice at once
        raise BadRequest(_("You have answered this puzzle already.")) from None
    solver.refresh_from_db()
    puzzle.refresh_from_db()
    return Answer(attempt=attempt, puzzle=puzzle, solver=solver, streak_ended=ended)
