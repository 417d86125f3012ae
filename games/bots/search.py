"""Compare candidate steps of one decision by playing each forward on sampled tables.

Each sample deals what the seat cannot see (:func:`games.bots.sampler.deal`), then every
candidate is applied to its own copy of that table and the round is played out with the fast
policy (:mod:`games.bots.rollout`), the same random source for every candidate (common random
numbers: the candidates differ only by their own consequences). A draw is followed by the
model's use of the card drawn (the strong bot's unless another is given; what the seat would
see then: the view plus that card), so that drawing is not judged by the fast policy's weaker
play of it. Pure Python, from the view.
"""

import math
import random
from dataclasses import dataclass, replace

from games.engine import DRAW, Action, View
from games.engine.sampling import unseen_cards

from .rollout import outcome, play_out, step
from .sampler import deal
from .strong import StrongBot, best_of

_STRONG = StrongBot()


@dataclass(frozen=True, slots=True)
class Estimate:
    """A candidate's results over the samples: its score minus the others' mean, per sample,
    and the same for the seat's own round score."""

    action: Action
    relative: list[float]
    own: list[float]

    @property
    def mean(self) -> float:
        return sum(self.relative) / len(self.relative)


def sample_outcomes(
    view: View,
    actions: list[Action],
    samples: int,
    rng: random.Random,
    model: StrongBot = _STRONG,
) -> list[Estimate]:
    """Each of ``actions`` (steps legal for ``view.seat`` now) played out on ``samples``
    tables dealt from ``view``; a draw followed by ``model``'s use of the card."""
    seat = view.seat
    pool = unseen_cards(view)
    relative: list[list[float]] = [[] for _ in actions]
    own: list[list[float]] = [[] for _ in actions]
    placements: dict[int, Action] = {}
    for _ in range(samples):
        table = deal(view, rng, pool)
        seed = rng.getrandbits(32)
        for i, action in enumerate(actions):
            t = table.copy()
            r = random.Random(seed)
            if action.kind == DRAW:
                t.drawn = card = t.pile.pop()
                if card not in placements:
                    placements[card] = _placement(view, card, model)
                action = placements[card]
            step(t, seat, action, r)
            result = play_out(t, r)
            relative[i].append(outcome(result, seat))
            own[i].append(float(result[seat]))
    return [Estimate(a, rel, o) for a, rel, o in zip(actions, relative, own, strict=True)]


def _placement(view: View, card: int, model: StrongBot) -> Action:
    """``model``'s swap or flip after drawing ``card`` from the position of ``view``."""
    after = replace(view, drawing=True, drawn=card, deck_count=view.deck_count - 1)
    return best_of(model.values(after)[1])[0]


def paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """Mean and standard error of ``a - b`` sample by sample."""
    n = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


__all__ = ["Estimate", "paired", "sample_outcomes"]
