"""Selectors for a player's statistics and game history, read from finished games' rows.

A private game exists only for its players: it counts in a profile's figures and history only
when the ``viewer`` played in it, or is a moderator (staff). No viewer: public games only.
"""

from dataclasses import dataclass

from django.db.models import Prefetch, Q

from games.models import Game, GamePlayer, Round


@dataclass(frozen=True, slots=True)
class PlayerStatistics:
    games: int
    wins: int
    best_total: int | None
    mean_total: float | None
    rounds: int
    mean_round_score: float | None
    rounds_ended: int
    times_doubled: int

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None


def visible_to(viewer) -> Q:
    """A ``GamePlayer`` filter: the entries of games that ``viewer`` may see listed."""
    if viewer is None or not viewer.is_authenticated:
        return Q(game__lobby__is_public=True)
    if viewer.is_staff:
        return Q()
    mine = GamePlayer.objects.filter(user_id=viewer.pk).values("game_id")
    return Q(game__lobby__is_public=True) | Q(game_id__in=mine)


def player_statistics(user, *, viewer=None) -> PlayerStatistics:
    """Totals over ``user``'s finished games that ``viewer`` may see (aborted games do not
    count)."""
    entries = list(
        GamePlayer.objects.filter(
            visible_to(viewer), user=user, game__status=Game.Status.FINISHED
        ).prefetch_related(
            Prefetch("game__rounds", queryset=Round.objects.filter(scores__isnull=False))
        )
    )
    round_scores: list[int] = []
    ended = doubled = 0
    for entry in entries:
        for rnd in entry.game.rounds.all():
            round_scores.append(rnd.scores[entry.seat])
            if rnd.ender == entry.seat:
                ended += 1
                doubled += rnd.scores[entry.seat] != rnd.raw[entry.seat]
    totals = [e.total for e in entries]
    return PlayerStatistics(
        games=len(entries),
        wins=sum(e.won for e in entries),
        best_total=min(totals, default=None),
        mean_total=sum(totals) / len(totals) if totals else None,
        rounds=len(round_scores),
        mean_round_score=sum(round_scores) / len(round_scores) if round_scores else None,
        rounds_ended=ended,
        times_doubled=doubled,
    )


def player_history(user, *, viewer=None, limit: int = 20) -> list[GamePlayer]:
    """``user``'s latest games that ``viewer`` may see, newest first, each with its game and
    every player's seat."""
    return list(
        GamePlayer.objects.filter(visible_to(viewer), user=user)
        .select_related("game__lobby")
        .prefetch_related(Prefetch("game__players", queryset=GamePlayer.objects.order_by("seat")))
        .order_by("-game__created_at")[:limit]
    )
