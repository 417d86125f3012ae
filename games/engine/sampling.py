"""Determinization: a full game consistent with what one seat sees, for bot simulation; the
cards it has not seen are dealt at random to the places it cannot see."""

import random
from collections import Counter
from itertools import chain

from .cards import DECK_COUNTER
from .game import Game
from .view import HIDDEN, View


def unseen_cards(view: View) -> list[int]:
    """The cards ``view.seat`` has not seen, in value order."""
    seen = chain(*view.grids, view.discard, [view.drawn])
    unseen = DECK_COUNTER - Counter(c for c in seen if c is not None and c != HIDDEN)
    return sorted(unseen.elements())


def sample_game(view: View, rng: random.Random) -> Game:
    """A game whose view for ``view.seat`` equals ``view``, hidden cards drawn from ``rng``."""
    pool = unseen_cards(view)
    rng.shuffle(pool)
    game = Game.__new__(Game)
    game.players = view.players
    game.rules = view.rules
    game.rng = random.Random(rng.random())
    game.round = view.round
    game.phase = view.phase
    game.cards = [[pool.pop() if c == HIDDEN else c for c in grid] for grid in view.grids]
    game.up = [[c != HIDDEN for c in grid] for grid in view.grids]
    game.hidden = [grid.count(HIDDEN) for grid in view.grids]
    game.drawn = None
    if view.drawing:
        game.drawn = view.drawn if view.drawn is not None else pool.pop()
    if len(pool) != view.deck_count:
        raise ValueError("the view's card counts are inconsistent")
    game.draw_pile = pool
    game.discard = list(view.discard)
    game.current = view.current
    game.starter = view.starter
    game.ender = view.ender
    game.totals = list(view.totals)
    game.results = list(view.results)
    # A start card may since have gone with its column: removed positions count as face up.
    game.reveals = [
        [p for p, c in enumerate(grid) if c != HIDDEN][:count]
        for grid, count in zip(view.grids, view.revealed, strict=True)
    ]
    game.turns = 0  # not in a view: only the record-keeping stall guard of the server reads it
    game.logs = None
    game.forced_reshuffles = []
    game.last_reshuffle = None
    game.turned_at_end = None
    return game
