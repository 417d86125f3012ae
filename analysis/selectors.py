"""Reads of the post-game analysis. Nothing here computes: a missing analysis is "pending"."""

from analysis.core import VERSION
from analysis.models import GameAnalysis
from games.models import Game

READY, PENDING, NONE = "ready", "pending", "none"


def analysis_of(game: Game) -> tuple[str, dict | None]:
    """``(state, data)`` for a game: ``("ready", data)`` once the analysis of this version is
    stored; ``("pending", None)`` before; ``("none", None)`` while the game runs (never shown
    then), when nobody human played, or when it failed."""
    if game.status != Game.Status.FINISHED:
        return NONE, None
    row = GameAnalysis.objects.filter(game=game, version=VERSION).only("data").first()
    if row is None:
        return PENDING, None
    if not row.data or not row.data.get("players"):
        return NONE, None
    return READY, row.data
