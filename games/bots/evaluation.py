"""The value of every legal move of a turn, from one seat's view: what the strong bot weighs.

:func:`evaluate` gives each legal step of the seat to act its **expected cost in points**:
the expected change of that player's round score (lower is better) if they make it and then
play on as the strong bot would (its model: ``games/bots/strong.py``). The lowest cost is the
strong bot's choice; the differences overstate what a choice loses (face-up cards are valued
as if they stayed to the end of the round: ``games.bots.search`` plays moves forward instead).
Only the view is used: what is face down or in the draw pile changes nothing.

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
EVAL_VERSION = 2

_STRONG = StrongBot()


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal step and its expected cost in points for the seat (lower is better)."""

    action: Action
    cost: float


def evaluate(view: View) -> list[MoveValue]:
    """Every legal step of ``view.seat`` with its expected cost, in the strong bot's order of
    preference on ties; ``[]`` when the seat has no turn decision (reveal phase, not its turn).
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
