"""A lean table dealt from one seat's view: what that seat cannot see, sampled at random.

:func:`deal` fills the face-down cards, the draw pile and another player's pending drawn card
with the cards the seat has not seen (``games.engine.sampling.unseen_cards``: the deck minus
every face-up grid card, the discard pile and its own drawn card), shuffled by ``rng``.
Everything else is copied from the view, so a table never holds anything the seat could not
know except the random deal. :mod:`games.bots.rollout` plays a table to the end of the round.
"""

import random

from games.engine import HIDDEN, View
from games.engine.sampling import unseen_cards


class Table:
    """One round in play, as plain lists: ``cards[s][p]`` (``None``: removed), ``up[s][p]``
    (removed positions count as face up), ``hidden[s]``, the draw pile (``pop()`` draws), the
    discard pile (top last), the current seat, the ender and a pending drawn card."""

    __slots__ = (
        "n",
        "cards",
        "up",
        "hidden",
        "pile",
        "discard",
        "current",
        "ender",
        "drawn",
        "on_tie",
        "clears",
        "mu",  # the mean of the unseen cards when dealt: what a face-down card is worth
    )

    def copy(self) -> "Table":
        other = Table.__new__(Table)
        other.n = self.n
        other.cards = [list(c) for c in self.cards]
        other.up = [list(u) for u in self.up]
        other.hidden = list(self.hidden)
        other.pile = list(self.pile)
        other.discard = list(self.discard)
        other.current = self.current
        other.ender = self.ender
        other.drawn = self.drawn
        other.on_tie = self.on_tie
        other.clears = self.clears
        other.mu = self.mu
        return other


def deal(view: View, rng: random.Random, pool: list[int] | None = None) -> Table:
    """A table consistent with ``view`` (its seat's view, in the play or final phase), the
    unseen cards dealt by ``rng``. ``pool`` is ``unseen_cards(view)`` if already known."""
    pool = list(unseen_cards(view) if pool is None else pool)
    mu = sum(pool) / len(pool) if pool else 5.0
    rng.shuffle(pool)
    t = Table.__new__(Table)
    t.n = len(view.grids)
    t.cards = [[pool.pop() if c == HIDDEN else c for c in grid] for grid in view.grids]
    t.up = [[c != HIDDEN for c in grid] for grid in view.grids]
    t.hidden = [grid.count(HIDDEN) for grid in view.grids]
    t.drawn = None
    if view.drawing:
        t.drawn = view.drawn if view.drawn is not None else pool.pop()
    if len(pool) != view.deck_count:
        raise ValueError("the view's card counts are inconsistent")
    t.pile = pool
    t.discard = list(view.discard)
    t.current = view.current
    t.ender = view.ender
    t.on_tie = view.rules.double_on_tie
    t.clears = view.rules.final_reveal_clears_columns
    t.mu = mu
    return t


__all__ = ["Table", "deal"]
