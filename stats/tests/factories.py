"""Statistics rows for hand-computed tests, written directly (games.models rows as needed)."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from analysis.core import VERSION
from analysis.models import GameAnalysis
from games.models import Game, GamePlayer, Lobby
from stats.models import GameResult, RoundResult


@transaction.atomic  # with its analysis: a live server's runner never sees it unanalysed
def finished_game(players, rounds, *, public=True, when=None):
    """``players``: users or bot levels (str); ``rounds``: per round, per seat
    (score, raw, ended, columns removed). Writes the game, its seats and its stats rows."""
    when = when or timezone.now()
    host = next(p for p in players if not isinstance(p, str))
    lobby = Lobby.objects.create(name="Hand table", host=host, is_public=public, status="finished")
    game = Game.objects.create(
        lobby=lobby, seed=1, snapshot={}, status="finished", finished_at=when
    )
    n = len(players)
    totals = [sum(r[seat][0] for r in rounds) for seat in range(n)]
    with_bots = any(isinstance(p, str) for p in players)
    for seat, p in enumerate(players):
        user = None if isinstance(p, str) else p
        level = p if isinstance(p, str) else ""
        common = dict(
            game=game,
            seat=seat,
            user=user,
            is_bot=bool(level),
            player_count=n,
            with_bots=with_bots,
            is_public=public,
        )
        GamePlayer.objects.create(
            game=game,
            seat=seat,
            user=user,
            bot_level=level,
            name=user.username if user else f"{level.title()} bot {seat}",
            total=totals[seat],
            won=totals[seat] == min(totals),
        )
        GameResult.objects.create(
            **common,
            total=totals[seat],
            won=totals[seat] == min(totals),
            place=1 + sum(t < totals[seat] for t in totals),
            rounds=len(rounds),
            finished_at=when,
        )
        for number, r in enumerate(rounds, start=1):
            score, raw, ended, columns = r[seat]
            RoundResult.objects.create(
                **common,
                number=number,
                counted=True,
                score=score,
                raw=raw,
                ended=ended,
                doubled=ended and score != raw,
                columns_removed=columns,
                scored_at=when + timedelta(seconds=number),
            )
    # No moves, so no record: nothing for the bot runner of a live test server to analyse.
    GameAnalysis.objects.create(game=game, version=VERSION, data=None, seconds=0.0)
    return game
