"""The Skyjo deck and the grid's geometry."""

from collections import Counter

ROWS = 3
COLS = 4
GRID_SIZE = ROWS * COLS
DECK_SIZE = 150

#: How many copies of each value the deck holds.
DECK_COUNTS: dict[int, int] = {-2: 5, -1: 10, 0: 15, **{v: 10 for v in range(1, 13)}}
DECK_COUNTER = Counter(DECK_COUNTS)


def full_deck() -> list[int]:
    """The 150 cards in value order (shuffle before dealing)."""
    return [value for value, count in sorted(DECK_COUNTS.items()) for _ in range(count)]


#: The three positions of each column, top to bottom.
COLUMNS = tuple((col, col + COLS, col + 2 * COLS) for col in range(COLS))
