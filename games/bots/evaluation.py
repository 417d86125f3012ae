"""The value of every legal move of a turn, from one seat's view: what the strong bot weighs.

:func:`evaluate` gives each legal step of the seat to act its **expected cost in points**:
the expected change of that player's score for the round (lower is better) if they make this
step and then play on as the strong bot would. It is the strong bot's model
(``games/bots/strong.py``, docs/bots.md): the grid valued column by column as its expected
final score (face-down cards at the mean of the unseen cards, pairs that may still be
completed), a blind draw valued as the expectation over the unseen cards of that card played at
its best, a card handed to the next player on the discard pile counted at a share of what it
saves them, and a move that turns the last face-down card valued at its exact total times the
chance of being doubled (against playing on, which gives everyone one more turn). So

- a cost of ``-4.0`` means the move is expected to lower the round score by 4 points;
- what judges a decision is the difference between its moves: ``cost(chosen) - cost(best)``
  is the points the choice lost in expectation (the post-game analysis, ``analysis/``).

It uses only the view: face-up cards, the whole discard pile, counts, and the seat's own drawn
card; changing the face-down cards or the draw pile behind it changes nothing.

>>> import random
>>> from games.bots import get_bot
>>> from games.engine import Game, reveal, view_of
>>> game = Game(["ann", "ben"], seed=3)
>>> for seat in (0, 1):
...     game.apply(seat, reveal(0)); game.apply(seat, reveal(4))
>>> moves = evaluate(view_of(game, game.current))
>>> moves[0].action.kind, len(moves)       # the draw, and taking the discard to any position
('draw', 13)
>>> best(moves).action == get_bot("strong").choose(view_of(game, game.current), random.Random(0))
True
"""

from dataclasses import dataclass

from games.engine import Action, View

from .strong import StrongBot, best_of

#: Bumped whenever the numbers :func:`evaluate` gives change (stored analyses are recomputed).
EVAL_VERSION = 1

_STRONG = StrongBot()


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal step and its expected cost in points for the seat (lower is better)."""

    action: Action
    cost: float


def evaluate(view: View) -> list[MoveValue]:
    """Every legal step of ``view.seat`` with its expected cost, in the strong bot's order of
    preference on ties; ``[]`` when the seat has no turn decision (reveal phase, not its turn).

    A turn has two decisions: before drawing (the draw, or taking the discard into position
    ``p``) and, after a draw, placing the drawn card (``swap(p)`` or ``flip(p)``).
    """
    if view.seat is None:
        return []
    base, moves = _STRONG.values(view)
    return [MoveValue(action, value - base) for action, value in moves]


def best(moves: list[MoveValue]) -> MoveValue:
    """The move the strong bot makes: the lowest cost, the first on a tie."""
    action, value = best_of([(m.action, m.cost) for m in moves])
    return MoveValue(action, value)


__all__ = ["EVAL_VERSION", "MoveValue", "best", "evaluate"]
