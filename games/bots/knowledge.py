"""What a seat knows, read off its view: the unseen cards and simple grid facts."""

from games.engine import COLUMNS, DECK_COUNTS, HIDDEN, View

OFFSET = 2  # counts[v + OFFSET] is how many cards of value v
DECK_MEAN = sum(v * n for v, n in DECK_COUNTS.items()) / 150


def unseen_counts(view: View) -> list[int]:
    """How many cards of each value the viewer has not seen: the deck minus every face-up grid
    card, the whole discard pile and its own drawn card (a reshuffled discard is unseen again)."""
    counts = [DECK_COUNTS[v] for v in range(-2, 13)]
    face_up = [c for grid in view.grids for c in grid if c not in (None, HIDDEN)]
    for card in [*face_up, *view.discard, view.drawn]:
        if card is not None:
            counts[card + OFFSET] -= 1
    return counts


def round_ending(view: View) -> bool:
    """Whether the round is in its final turns or the seat's step may end it (its last
    face-down card)."""
    return view.ender is not None or view.grids[view.seat].count(HIDDEN) <= 1


def hidden_positions(grid) -> list[int]:
    return [p for p, c in enumerate(grid) if c == HIDDEN]


def up_positions(grid) -> list[int]:
    return [p for p, c in enumerate(grid) if c is not None and c != HIDDEN]


def in_grid(grid) -> list[int]:
    return [p for p, c in enumerate(grid) if c is not None]


def column_of(pos: int) -> tuple[int, int, int]:
    return COLUMNS[pos % 4]


def in_pair(grid, pos: int) -> bool:
    """Whether the other two cards of ``pos``'s column are face up and equal."""
    a, b = (grid[q] for q in column_of(pos) if q != pos)
    return a == b and a not in (HIDDEN, None)


def known_score(grid) -> int:
    return sum(c for c in grid if c is not None and c != HIDDEN)


def may_end(view: View, pos: int, card: int | None) -> bool:
    """Whether the seat's move at ``pos`` (``card`` put there; ``None``: turned) does not end the
    round, or ends it strictly lowest with every face-down card at the table worth 5."""
    grid = view.grids[view.seat]
    if hidden_positions(grid) != [pos] or view.ender is not None:
        return True
    mine = known_score(grid) + (5 if card is None else card)
    return all(
        mine < known_score(g) + 5 * len(hidden_positions(g))
        for s, g in enumerate(view.grids)
        if s != view.seat
    )
