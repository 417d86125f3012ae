"""Medium: sound heuristics from face-up cards and the discard pile (docs/bots.md)."""

import random

from games.engine import Action, View, draw, flip, reveal, swap, take_discard

from .knowledge import OFFSET, column_of, hidden_positions, in_grid, in_pair, may_end, unseen_counts

HIDDEN_VALUE = 5.0
TAKE_MARGIN = 2.0
KEEP_MARGIN = 1.0
PAIR_BONUS = 1.5


def placement_gain(grid, pos: int, card: int, counts: list[int]) -> float:
    """Points saved by putting ``card`` at ``pos`` (positive is good)."""
    gain = (HIDDEN_VALUE if grid[pos] == "?" else grid[pos]) - card
    others = [grid[q] for q in column_of(pos) if q != pos]
    if all(o == card for o in others):
        return gain + 2 * card if card > 0 else gain + 2 * card + 0.5
    if card > 0 and counts[card + OFFSET] > 0 and card in others and "?" in others:
        gain += PAIR_BONUS
    return gain


def best_placement(grid, card: int, counts: list[int]) -> tuple[float, int]:
    """The best gain and, among equal gains, the first position giving it."""
    gain, pos = max((placement_gain(grid, p, card, counts), -p) for p in in_grid(grid))
    return gain, -pos


class MediumBot:
    name = "medium"

    def choose(self, view: View, rng: random.Random) -> Action:
        seat = view.seat
        grid = view.grids[seat]
        hidden = hidden_positions(grid)
        if view.phase == "reveal":
            pair = [p for p in column_of(rng.randrange(4)) if p in hidden]
            return reveal(pair[0] if pair else rng.choice(hidden))
        counts = unseen_counts(view)
        if not view.drawing:
            card = view.discard_top
            if card is not None:
                gain, pos = best_placement(grid, card, counts)
                if gain >= TAKE_MARGIN and may_end(view, pos, card):
                    return take_discard(pos)
            return draw()
        card = view.drawn
        gain, pos = best_placement(grid, card, counts)
        if hidden and (gain < KEEP_MARGIN or not may_end(view, pos, card)):
            targets = [p for p in hidden if not in_pair(grid, p)] or hidden
            if len(hidden) > 1 or may_end(view, targets[0], None):
                return flip(rng.choice(targets))
            up = [p for p in in_grid(grid) if grid[p] != "?"]
            if up:
                return swap(max(up, key=lambda p: grid[p] - card))
        return swap(pos)
