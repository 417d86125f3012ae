"""Seating players at tables of 2 to 4: pure Python, no Django.

Players come ranked (points, then rating) and are cut into tables of neighbours in that order,
as many seated as the table sizes allow, the tables as even as they can be. Then players are
swapped between neighbouring tables while a swap lowers the number of pairs at a table who met
before (``met`` counts each pair's past games; a pair that met in their last game counts more).
"""

from collections.abc import Sequence
from dataclasses import dataclass, field

MIN_TABLE = 2
MAX_TABLE = 4
RECENT_WEIGHT = 10  # a pair of last opponents weighs as much as ten older meetings
MAX_PASSES = 4


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    points: int = 0
    rating: float = 0.0
    met: dict = field(default_factory=dict)  # opponent id -> games together
    last: frozenset = frozenset()  # the opponents of their last game
    byes: int = 0


def table_sizes(count: int, low: int, high: int) -> list[int]:
    """Table sizes for ``count`` players with ``low`` to ``high`` seats each: the most players
    seated, then the fewest tables, sizes as even as possible (largest first)."""
    if not MIN_TABLE <= low <= high <= MAX_TABLE:
        raise ValueError("table sizes are 2 to 4 seats, low <= high")
    for seated in range(count, low - 1, -1):
        tables = -(-seated // high)
        if tables * low <= seated:
            base, extra = divmod(seated, tables)
            return [base + 1] * extra + [base] * (tables - extra)
    return []


def ranked(players: Sequence[Player]) -> list[Player]:
    return sorted(players, key=lambda p: (-p.points, -p.rating, p.id))


def pair(players: Sequence[Player], low: int, high: int) -> tuple[list[list[int]], list[int]]:
    """Tables (lists of ids) and the ids left out: the lowest ranked, those with the fewest
    byes before them first given a bye (Swiss); an arena's left out simply wait."""
    order = ranked(players)
    sizes = table_sizes(len(order), low, high)
    left = len(order) - sum(sizes)
    out: list[Player] = []
    if left:
        out = sorted(order[::-1], key=lambda p: p.byes)[:left]  # stable: lowest ranked first
        chosen = {p.id for p in out}
        order = [p for p in order if p.id not in chosen]
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    _untangle(tables)
    return [[p.id for p in table] for table in tables], [p.id for p in out]


def repeats(table: Sequence[Player]) -> int:
    """The weight of the pairs at ``table`` who met before."""
    cost = 0
    for i, a in enumerate(table):
        for b in table[i + 1 :]:
            cost += a.met.get(b.id, 0) + (RECENT_WEIGHT if b.id in a.last else 0)
    return cost


def _untangle(tables: list[list[Player]]) -> None:
    """Swap players between neighbouring tables while a swap lowers the repeats of the two."""
    for _pass in range(MAX_PASSES):
        changed = False
        for t in range(len(tables) - 1):
            a, b = tables[t], tables[t + 1]
            if not repeats(a) and not repeats(b):
                continue
            best, swap = repeats(a) + repeats(b), None
            for i in range(len(a)):
                for j in range(len(b)):
                    a[i], b[j] = b[j], a[i]
                    cost = repeats(a) + repeats(b)
                    a[i], b[j] = b[j], a[i]
                    if cost < best:
                        best, swap = cost, (i, j)
            if swap is not None:
                i, j = swap
                a[i], b[j] = b[j], a[i]
                changed = True
        if not changed:
            return
