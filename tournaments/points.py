"""Places and points of a tournament table, and the standings' order: pure Python, no Django.

A table's places come from the game's final totals, lowest first; tied players share the better
place (the rules make every lowest total a winner). Points by place (``PLACE_POINTS``): the
winner 4, the last 1, whatever the table's size. In an arena a win after ``STREAK_AFTER`` wins in
a row counts double, until a game that is not a win. A Swiss bye scores ``BYE_POINTS``.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

PLACE_POINTS = {2: (4, 1), 3: (4, 2, 1), 4: (4, 3, 2, 1)}
BYE_POINTS = 2
STREAK_AFTER = 2


def places(totals: Sequence[int]) -> list[int]:
    """The place (1 first) of each total; equal totals share the better place."""
    return [1 + sum(other < total for other in totals) for total in totals]


def place_points(place: int, size: int) -> int:
    """The points of ``place`` at a table of ``size`` seats."""
    return PLACE_POINTS[size][place - 1]


@dataclass(frozen=True, slots=True)
class Scored:
    points: int
    streak: int  # wins in a row after this game


def arena_points(place: int, size: int, streak: int) -> Scored:
    """An arena game's points for ``place`` at a table of ``size``, the player having won
    ``streak`` games in a row before it: a win on a streak counts double."""
    points = place_points(place, size)
    if place != 1:
        return Scored(points, 0)
    return Scored(points * 2 if streak >= STREAK_AFTER else points, streak + 1)


@dataclass(frozen=True, slots=True)
class Standing:
    id: int
    points: int
    wins: int
    games: int
    rating: float
    joined: int  # order of joining: earlier first
    buchholz: int = 0  # Swiss: the sum of the points of every opponent met


def arena_order(rows: Iterable[Standing]) -> list[Standing]:
    """Arena tie-breaks: points, then wins, then fewer games, then the earlier entry."""
    return sorted(rows, key=lambda s: (-s.points, -s.wins, s.games, s.joined))


def swiss_order(rows: Iterable[Standing]) -> list[Standing]:
    """Swiss tie-breaks: points, then Buchholz, then wins, then rating at entry, then entry."""
    return sorted(rows, key=lambda s: (-s.points, -s.buchholz, -s.wins, -s.rating, s.joined))


def buchholz(points: dict[int, int], opponents: dict[int, list[int]]) -> dict[int, int]:
    """Each player's Buchholz: the points of every opponent met, once per game together."""
    return {pid: sum(points.get(o, 0) for o in met) for pid, met in opponents.items()}
