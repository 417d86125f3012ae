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


def public_analyses(*, exclude_game_ids=None, limit: int = 100):
    """The stored analyses (of this version, not failed) of finished games of public lobbies,
    oldest game first, without those of ``exclude_game_ids`` (a queryset or ids): each row with
    its ``game``."""
    rows = (
        GameAnalysis.objects.filter(
            version=VERSION,
            data__isnull=False,
            game__status=Game.Status.FINISHED,
            game__lobby__is_public=True,
        )
        .select_related("game")
        .order_by("game_id")
    )
    if exclude_game_ids is not None:
        rows = rows.exclude(game_id__in=exclude_game_ids)
    return rows[:limit]
