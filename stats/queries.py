"""Reads for the profile and players pages, aggregated by the database in a fixed number of
queries. A private game counts only for a ``viewer`` who played in it or a moderator."""

from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db import connection
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    Max,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
    Sum,
    Value,
    When,
    Window,
    prefetch_related_objects,
)
from django.db.models.expressions import RowRange
from django.db.models.functions import Rank
from django.utils import timezone

from core.access import sees_private_games
from games.models import GamePlayer
from stats.models import GameResult, RatingChange, RoundResult

RECENT_GAMES = 20
HISTORY_PAGE = 20
LEADERBOARD_PAGE = 50
LEADERBOARD_FIELDS = {
    "live": ("id", "username", "rating_mu", "rating_sigma", "rated_games"),
    "correspondence": ("id", "username", "corr_rating_mu", "corr_rating_sigma", "corr_rated_games"),
}
RATING_POINTS = 200
OPPONENTS = 5
OPPONENT_GAMES = 1000
BUCKET = 5


def sees_all(user, viewer) -> bool:
    """Whether ``viewer`` may see every game of ``user``: their own, or a moderator."""
    return viewer is not None and (viewer == user or sees_private_games(viewer))


def visible(user, viewer, public: str = "is_public") -> Q:
    """A filter on rows of ``user``'s games (``public``: the field that says a game is public):
    those ``viewer`` may see."""
    if sees_all(user, viewer):
        return Q()
    if viewer is None or not viewer.is_authenticated:
        return Q((public, True))
    mine = GameResult.objects.filter(user_id=viewer.pk, is_public=False).values("game_id")
    return Q((public, True)) | Q(game_id__in=mine)


@dataclass
class Side:
    """A player's figures over one kind of game: against people only, or with bots."""

    games: int = 0
    wins: int = 0
    by_players: list[dict] = field(default_factory=list)
    rounds: int = 0
    mean_round: float | None = None
    recent_mean_round: float | None = None
    ended: int = 0
    doubled: int = 0
    columns: float | None = None
    best_game: dict | None = None  # with_bots, total, game_id
    worst_game: dict | None = None
    best_round: dict | None = None  # with_bots, score, game_id
    worst_round: dict | None = None
    distribution: list[tuple[int, int]] = field(default_factory=list)

    @property
    def trend(self) -> float | None:
        """Recent mean round score minus the overall one (negative: better); None until there
        are more games than ``RECENT_GAMES``."""
        if self.games <= RECENT_GAMES or self.mean_round is None or self.recent_mean_round is None:
            return None
        return self.recent_mean_round - self.mean_round


@dataclass
class Profile:
    people: Side
    bots: Side
    rating_history: list[dict]  # the live rating's changes, oldest first
    opponents: list[dict]
    corr_rating_history: list[dict] = field(default_factory=list)  # correspondence's


def player_profile(user, *, viewer=None) -> Profile:
    """Every figure of ``user``'s profile: a fixed number of queries (six on PostgreSQL)."""
    seen = visible(user, viewer)
    games = GameResult.objects.filter(seen, user=user)
    rounds = RoundResult.objects.filter(seen, user=user, counted=True)
    sides = {False: Side(), True: Side()}

    for row in (
        games.values("with_bots", "player_count")
        .annotate(games=Count("id"), wins=Count("id", filter=Q(won=True)))
        .order_by("with_bots", "player_count")
    ):
        side = sides[row["with_bots"]]
        side.games += row["games"]
        side.wins += row["wins"]
        side.by_players.append(row)

    recent = {
        kind: games.filter(with_bots=kind).order_by("-finished_at").values("game_id")[:RECENT_GAMES]
        for kind in sides
    }
    in_recent = Q(with_bots=False, game_id__in=recent[False]) | Q(
        with_bots=True, game_id__in=recent[True]
    )
    # The round figures and the distribution from one pass over the player's rounds.
    scores = (
        rounds.values("with_bots", "score")
        .annotate(
            n=Count("score"),
            ended=Count("score", filter=Q(ended=True)),
            doubled=Count("score", filter=Q(doubled=True)),
            recent=Count("score", filter=in_recent),
            columns=Sum("columns_removed"),
        )
        .order_by()
    )
    rows = list(scores)
    for kind, side in sides.items():
        mine = [row for row in rows if row["with_bots"] == kind]
        if not mine:
            continue
        side.rounds = sum(row["n"] for row in mine)
        side.ended = sum(row["ended"] for row in mine)
        side.doubled = sum(row["doubled"] for row in mine)
        side.mean_round = sum(row["score"] * row["n"] for row in mine) / side.rounds
        side.columns = sum(row["columns"] for row in mine) / side.rounds
        recent = sum(row["recent"] for row in mine)
        if recent:
            side.recent_mean_round = sum(row["score"] * row["recent"] for row in mine) / recent
        buckets = Counter()
        for row in mine:
            buckets[row["score"] // BUCKET * BUCKET] += row["n"]
        starts = range(min(buckets), max(buckets) + BUCKET, BUCKET)
        side.distribution = [(start, buckets[start]) for start in starts]

    # A resigned game's total is that of the rounds played before it stopped, a forfeited
    # one partly a bot's: neither is the player's game.
    for (kind, end), row in _extremes(
        games.filter(resigned=False, forfeited=False), "total", "-finished_at"
    ).items():
        setattr(sides[kind], f"{end}_game", row)
    for (kind, end), row in _extremes(rounds, "score", "-scored_at").items():
        setattr(sides[kind], f"{end}_round", row)

    changes = RatingChange.objects.filter(
        visible(user, viewer, "game__lobby__is_public"), user=user
    )
    history = _rating_histories(changes)
    return Profile(
        sides[False],
        sides[True],
        history[RatingChange.Kind.LIVE],
        _opponents(user, viewer),
        history[RatingChange.Kind.CORRESPONDENCE],
    )


def _rating_histories(changes) -> dict[str, list[dict]]:
    """{kind: the last ``RATING_POINTS`` of ``changes`` of that kind, oldest first}: one query
    (UNION ALL) where the database allows, else one per kind."""
    parts = [
        changes.filter(kind=kind)
        .values("kind", "rating_before", "rating_after", "rated_at", "game_id")
        .order_by("-rated_at", "-game_id")[:RATING_POINTS]
        for kind in RatingChange.Kind.values
    ]
    if connection.features.supports_slicing_ordering_in_compound:
        found = list(parts[0].union(*parts[1:], all=True))
    else:
        found = [row for part in parts for row in part]
    found.sort(key=lambda row: (row["rated_at"], row["game_id"]))
    return {kind: [row for row in found if row["kind"] == kind] for kind in RatingChange.Kind}


def _extremes(rows, column: str, recent: str) -> dict:
    """{(with_bots, "best" or "worst"): the row with the lowest or highest ``column``}, the
    latest first on a tie; one query (UNION ALL) where the database allows, else four."""
    parts = [
        rows.filter(with_bots=kind)
        .annotate(end=Value(end))
        .values("with_bots", "end", column, "game_id")
        .order_by(order, recent)[:1]
        for kind in (False, True)
        for end, order in (("best", column), ("worst", f"-{column}"))
    ]
    if connection.features.supports_slicing_ordering_in_compound:
        found = list(parts[0].union(*parts[1:], all=True))
    else:
        found = [row for part in parts for row in part]
    return {(row["with_bots"], row["end"]): row for row in found}


OPPONENTS_SQL = """
SELECT o.user_id, u.username, COUNT(*) AS games,
       COUNT(*) FILTER (WHERE m.total < o.total) AS lower,
       COUNT(*) FILTER (WHERE m.total > o.total) AS higher
FROM (
    SELECT game_id, user_id, total FROM stats_gameresult
    WHERE user_id = %s {seen} ORDER BY finished_at DESC LIMIT %s
) m
JOIN stats_gameresult o ON o.game_id = m.game_id AND o.user_id IS NOT NULL AND o.user_id <> m.user_id
JOIN accounts_user u ON u.id = o.user_id
GROUP BY o.user_id, u.username
ORDER BY games DESC, u.username
LIMIT %s
"""


def _opponents(user, viewer) -> list[dict]:
    """The people ``user`` played most in their last ``OPPONENT_GAMES`` games, with who finished
    lower in their games together."""
    seen, params = "", [user.pk]
    if not sees_all(user, viewer):
        seen = "AND is_public"
        if viewer is not None and viewer.is_authenticated:
            seen = (
                "AND (is_public OR game_id IN "
                "(SELECT game_id FROM stats_gameresult WHERE user_id = %s AND NOT is_public))"
            )
            params.append(viewer.pk)
    with connection.cursor() as cursor:
        cursor.execute(OPPONENTS_SQL.format(seen=seen), [*params, OPPONENT_GAMES, OPPONENTS])
        names = ["user_id", "user__username", "games", "lower", "higher"]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


@dataclass
class HistoryPage:
    """A page of a player's history that knows only whether there is a next (no count)."""

    entries: list
    number: int

    has_next: bool = False

    def __iter__(self):
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_other_pages(self) -> bool:
        return self.has_previous or self.has_next

    def previous_page_number(self) -> int:
        return self.number - 1

    def next_page_number(self) -> int:
        return self.number + 1


# Far past any history, and an OFFSET every database holds.
MAX_HISTORY_PAGE = 1_000_000


def player_history(user, *, viewer=None, page: object = 1) -> HistoryPage:
    """A page of ``user``'s games that ``viewer`` may see, newest first, with game, lobby and
    every seat in seat order (``entry.game.players.all``): two queries."""
    try:
        number = min(max(1, int(page)), MAX_HISTORY_PAGE)
    except (TypeError, ValueError):
        number = 1
    start = (number - 1) * HISTORY_PAGE
    rows = _history(user, viewer).only(*HISTORY_FIELDS)
    entries = list(rows[start : start + HISTORY_PAGE + 1])
    prefetch_related_objects(entries[:HISTORY_PAGE], _players())
    return HistoryPage(entries[:HISTORY_PAGE], number, len(entries) > HISTORY_PAGE)


# What a history row shows (templates/stats/history_row.html), besides the players.
HISTORY_FIELDS = (
    "total",
    "won",
    "forfeited",
    "game",
    "game__status",
    "game__resigned",
    "game__created_at",
    "game__lobby",
    "game__lobby__name",
    "game__lobby__move_days",
)


def recent_games(user, *, viewer=None, limit: int = 20) -> list[GamePlayer]:
    """``user``'s latest ``limit`` games that ``viewer`` may see, with their players."""
    return list(_history(user, viewer).defer("game__snapshot").prefetch_related(_players())[:limit])


def _players() -> Prefetch:
    return Prefetch("game__players", queryset=GamePlayer.objects.order_by("seat"))


def _history(user, viewer):
    entries = GamePlayer.objects.filter(user=user)
    if visible(user, viewer):
        # GamePlayer rows have no is_public of their own: the same rule through the lobby.
        if viewer is None or not viewer.is_authenticated:
            entries = entries.filter(game__lobby__is_public=True)
        else:
            # A scalar subquery per entry: PostgreSQL plans EXISTS as a hash of all the viewer's games.
            mine = GamePlayer.objects.filter(game_id=OuterRef("game_id"), user_id=viewer.pk)
            entries = entries.alias(mine=Subquery(mine.order_by().values("id")[:1])).filter(
                Q(game__lobby__is_public=True) | Q(mine__isnull=False)
            )
    return entries.select_related("game__lobby").order_by("-game_id")


def leaderboard(
    *,
    period: str = "all",
    min_games: int = 1,
    search: str = "",
    page: object = 1,
    viewer=None,
    kind: str = "live",
):
    """A page of the rated, active, unbanned users by their ``kind`` rating ("live" or
    "correspondence"), each with ``rank`` (ties share one), the page with the ``viewer``'s
    ``my_rank`` (None: not on it): two queries."""
    mu, sigma, rated_games = get_user_model().RATING_FIELDS[kind]
    users = get_user_model().objects.filter(is_active=True, is_banned=False)
    players = users.filter(**{f"{rated_games}__gte": max(1, min_games)})
    if period == "30d":
        since = timezone.now() - timedelta(days=30)
        changes = RatingChange.objects.filter(user=OuterRef("pk"), kind=kind, rated_at__gte=since)
        players = players.filter(Exists(changes))
    players = players.annotate(score=F(mu) - 3 * F(sigma))  # as shown
    sums = {"count": Count("pk", filter=Q(username__icontains=search) if search else None)}
    if viewer is not None and viewer.is_authenticated:
        mine = players.filter(pk=viewer.pk).values_list("score", flat=True)
        sums["on"] = Count("pk", filter=Q(pk=viewer.pk))
        sums["better"] = Count("pk", filter=Q(score__gt=Subquery(mine)))
    counts = players.aggregate(**sums)
    rows = players.only(*LEADERBOARD_FIELDS[kind]).annotate(
        rank=Window(Rank(), order_by=F("score").desc())
    )
    if search:
        # Filtered on a window (an outer query): the ranks stay those of the whole list.
        found = Case(When(username__icontains=search, then=Value(1)), default=Value(0))
        rows = rows.annotate(
            found=Window(Max(found), order_by=F("score").desc(), frame=RowRange(0, 0))
        ).filter(found=1)
    rows = rows.order_by("-score", "username")
    paginator = Paginator(rows, LEADERBOARD_PAGE)
    paginator.count = counts["count"]  # counted with the viewer's rank
    result = paginator.get_page(page)
    result.my_rank = counts["better"] + 1 if counts.get("on") else None
    return result
