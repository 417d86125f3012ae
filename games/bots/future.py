"""What a seat's next turns will probably save: the planning term of the expert's model.

The strong bot values a grid as if today's face-up cards stayed until the round ends. They do
not: each of the seat's next turns offers a card that may replace its worst one. With ``turns``
turns left, :func:`future_gain` is the sum of the ``turns`` largest expected savings
``E[max(0, x - D)]`` over the grid's replaceable cards ``x`` (a face-down card counts as the
unseen mean; the two face-up cards of a pair are kept), ``D`` a card drawn from the unseen
ones. A grid's value minus its future gain is what it will probably score. The sum is convex
in each card, so turning a face-down card up has a value of its own: it tells which card to
replace.
"""

H = "?"
OFFSET = 2  # probs[v + OFFSET] is the chance that a drawn card is v


class Savings:
    """``E[max(0, x - D)]`` for every card value ``x`` and for a face-down card, computed once
    per decision from the chances of each unseen value."""

    __slots__ = ("by_value", "face_down")

    def __init__(self, probs: list[float], mean: float) -> None:
        values = [(i - OFFSET, p) for i, p in enumerate(probs) if p]
        self.by_value = [sum(p * max(0, x - v) for v, p in values) for x in range(-2, 13)]
        self.face_down = sum(p * max(0.0, mean - v) for v, p in values)


def future_gain(grid, turns: int, savings: Savings) -> float:
    """Expected points the seat's next ``turns`` turns save on ``grid`` (cells: a card value,
    ``"?"`` face down, ``None`` removed)."""
    if turns <= 0:
        return 0.0
    found = []
    for col in range(4):
        cells = (grid[col], grid[col + 4], grid[col + 8])
        if cells[0] is None:
            continue
        up = [c for c in cells if c != H]
        paired = len(up) == 2 and up[0] == up[1]
        for c in cells:
            if c == H:
                found.append(savings.face_down)
            elif not paired:
                found.append(savings.by_value[c + OFFSET])
    found.sort(reverse=True)
    return sum(found[:turns])


def placed(grid, pos: int, card: int) -> list:
    """``grid`` with ``card`` face up at ``pos``, its column removed if that completes it."""
    after = list(grid)
    after[pos] = card
    col = pos % 4
    if after[col] == after[col + 4] == after[col + 8] and after[col] not in (None, H):
        after[col] = after[col + 4] = after[col + 8] = None
    return after


__all__ = ["Savings", "future_gain", "placed"]
