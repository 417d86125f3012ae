"""Expert: the strong bot's model planning its next turns, and a search as the round ends.

From the seat's view only. Its model is the strong bot's with the planning term of
:mod:`games.bots.future`: while the round goes on, a grid is valued net of what the seat's
next turns will probably save, and the model's best step is played. As the round ends (the
seat may end it, or these are the final turns) the steps within ``MARGIN`` points of the
model's best (at most ``CANDIDATES``, one flip) are played forward on tables dealt from the
cards the seat has not seen (:mod:`games.bots.search`), to the end of the round with a fast
policy, in batches of ``BATCH`` samples up to ``SAMPLES``. A candidate replaces the model's
choice only when its score relative to the others' is lower by more than ``Z`` standard
errors; a candidate clearly worse after a batch is dropped, and the search stops once none is
left. A lone candidate costs no search.
"""

import random

from games.engine import FLIP, Action, View

from .knowledge import round_ending
from .search import paired, sample_outcomes
from .strong import StrongBot, best_of

MARGIN = 3.0
CANDIDATES = 3
BATCH = 8
SAMPLES = 32
Z = 1.5
DROP_Z = 2.0


class ExpertBot:
    name = "expert"

    def __init__(self) -> None:
        self._model = StrongBot(plan=True)

    @property
    def model(self) -> StrongBot:
        """Its model alone: the step it plays while the round goes on, without any search."""
        return self._model

    def choose(self, view: View, rng: random.Random) -> Action:
        if view.phase == "reveal":
            return self._model.choose(view, rng)
        _base, moves = self._model.values(view)
        top, top_value = best_of(moves)
        if not round_ending(view):
            return top
        candidates = candidates_of(moves, top, top_value)
        if len(candidates) == 1:
            return top
        return self._search(view, candidates, rng)

    def _search(self, view: View, candidates: list[Action], rng: random.Random) -> Action:
        results = {a: ([], []) for a in candidates}
        alive = list(candidates)
        top = candidates[0]
        taken = 0
        while taken < SAMPLES and len(alive) > 1:
            for est in sample_outcomes(view, alive, BATCH, rng, self._model):
                results[est.action][0].extend(est.relative)
            taken += BATCH
            base = results[top][0]
            kept = [top]
            for a in alive[1:]:
                mean, se = paired(results[a][0], base)
                if mean <= DROP_Z * se:
                    kept.append(a)
            alive = kept
        choice, best_mean = top, 0.0
        base = results[top][0]
        for a in alive[1:]:
            mean, se = paired(results[a][0], base)
            if mean < -Z * se and mean < best_mean:
                choice, best_mean = a, mean
        return choice


def candidates_of(moves: list[tuple[Action, float]], top: Action, top_value: float) -> list[Action]:
    """The model's choice first, then the closest others within ``MARGIN`` (one flip)."""
    chosen = [top]
    flip_seen = top.kind == FLIP
    for action, value in sorted(moves, key=lambda m: m[1]):
        if len(chosen) >= CANDIDATES or value > top_value + MARGIN:
            break
        if action == top or (action.kind == FLIP and flip_seen):
            continue
        flip_seen = flip_seen or action.kind == FLIP
        chosen.append(action)
    return chosen
