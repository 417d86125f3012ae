"""Easy: legal, sensible-looking moves without much thought (docs/bots.md)."""

import random

from games.engine import Action, View, draw, flip, reveal, swap, take_discard

from .knowledge import hidden_positions, in_grid, up_positions

LOW = 3


class EasyBot:
    name = "easy"

    def choose(self, view: View, rng: random.Random) -> Action:
        grid = view.grids[view.seat]
        hidden = hidden_positions(grid)
        if view.phase == "reveal":
            return reveal(rng.choice(hidden))
        up = up_positions(grid)
        worst = max(up, key=lambda p: grid[p], default=None)
        careless = rng.random() < 1 / 6
        if not view.drawing:
            card = view.discard_top
            if card is not None and worst is not None and card < grid[worst] and card <= LOW:
                return take_discard(worst)
            if card is not None and card <= 0 and hidden:
                return take_discard(rng.choice(hidden))
            return draw()
        card = view.drawn
        if worst is not None and card < grid[worst] and (card <= LOW + 2 or careless):
            return swap(worst)
        if hidden and card <= LOW:
            return swap(rng.choice(hidden))
        if hidden:
            return flip(rng.choice(hidden))
        if worst is not None and card < grid[worst]:
            return swap(worst)
        return swap(rng.choice(in_grid(grid)))
