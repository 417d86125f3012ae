"""How long a tournament game is judged to take: pure Python, no Django.

A game is judged to last ``rounds`` rounds of ``TURNS_PER_ROUND`` turns per seat, each turn
taking a third of the turn clock: rounds = end score / ``POINTS_PER_ROUND`` (at least one). An
arena opens no table whose game, so judged, would end after the arena's end.
"""

import math

POINTS_PER_ROUND = 30
TURNS_PER_ROUND = 10
TURN_SHARE = 3  # an average turn takes a third of the clock


def game_seconds(*, seats: int, turn_clock: int, end_score: int) -> int:
    rounds = max(1, math.ceil(end_score / POINTS_PER_ROUND))
    return rounds * TURNS_PER_ROUND * seats * turn_clock // TURN_SHARE
