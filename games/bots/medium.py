"""Medium: sound heuristics from face-up cards and the discard pile.

Hidden cards are worth 5. A card goes where it gains most (a completed column gains the whole
column, a pair with a hidden third card a small bonus); the discard is taken when it gains at
least 2, a drawn card kept when it gains at least 1. It never builds towards a value whose
copies are all gone, and turns its last hidden card only when its total plus 5 beats every
opponent's estimate.
"""

import random

from games.engine import Action, View, draw, flip, reveal, swap, take_discard

from .knowledge import OFFSET, column_of, hidden_positions, in_grid, known_score, unseen_counts

HIDDEN_VALUE = 5.0
TAKE_MARGIN = 2.0
KEEP_MARGIN = 1.0
PAIR_BONUS = 1.5


def _value(card) -> float:
    return HIDDEN_VALUE if card == "?" else card


def placement_gain(grid, pos: int, card: int, counts: list[int]) -> float:
    """Points saved by putting ``card`` at ``pos`` (positive is good)."""
    gain = _value(grid[pos]) - card
    others = [grid[q] for q in column_of(pos) if q != pos]
    if all(o == card for o in others):
        return gain + 2 * card if card > 0 else gain + 2 * card + 0.5
    if card > 0 and counts[card + OFFSET] > 0 and card in others and "?" in others:
        gain += PAIR_BONUS
    return gain


def best_placement(grid, card: int, counts: list[int]) -> tuple[float, int]:
    return max((placement_gain(grid, p, card, counts), -p) for p in in_grid(grid))


class MediumBot:
    name = "medium"

    def choose(self, view: View, rng: random.Random) -> Action:
        seat = view.seat
        grid = view.grids[seat]
        hidden = hidden_positions(grid)
        if view.phase == "reveal":
            col = rng.randrange(4)
            pair = [p for p in column_of(col) if p in hidden]
            return reveal(pair[0] if pair else rng.choice(hidden))
        counts = unseen_counts(view)
        if not view.drawing:
            card = view.discard_top
            if card is not None:
                gain, pos = best_placement(grid, card, counts)
                pos = -pos
                if gain >= TAKE_MARGIN and self._safe_end(view, grid, pos, card):
                    return take_discard(pos)
            return draw()
        card = view.drawn
        gain, pos = best_placement(grid, card, counts)
        pos = -pos
        if hidden and (gain < KEEP_MARGIN or not self._safe_end(view, grid, pos, card)):
            targets = [p for p in hidden if not self._has_pair(grid, p)] or hidden
            if len(hidden) > 1 or self._safe_end(view, grid, targets[0], None):
                return flip(rng.choice(targets))
            up = [p for p in in_grid(grid) if grid[p] != "?"]
            if up:
                worst = max(up, key=lambda p: grid[p] - card)
                return swap(worst)
        return swap(pos)

    @staticmethod
    def _has_pair(grid, pos: int) -> bool:
        others = [grid[q] for q in column_of(pos) if q != pos]
        return others[0] == others[1] and others[0] not in ("?", None)

    @staticmethod
    def _safe_end(view: View, grid, pos: int, card) -> bool:
        """Whether a move at ``pos`` is fine for ending the round (True if it does not end it)."""
        hidden = hidden_positions(grid)
        if hidden != [pos] or view.ender is not None:
            return True
        mine = known_score(grid) + (card if card is not None else HIDDEN_VALUE)
        if card is not None and grid[pos] != "?":
            mine -= grid[pos]
        for s, other in enumerate(view.grids):
            if s != view.seat:
                theirs = known_score(other) + HIDDEN_VALUE * len(hidden_positions(other))
                if theirs <= mine:
                    return False
        return True
