"""Reads of the tournaments app: the lists, the standings (in their tie-break order, by SQL),
the tables in play, a player's own table and finished ones, and a player's tournament
figures."""

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Min, Q, Sum

from tournaments.models import Entry, Table, TableSeat, Tournament

ARENA_ORDER = ("-points", "-wins", "games", "id")
SWISS_ORDER = ("-points", "-buchholz", "-wins", "-rating", "id")
LIST_LIMIT = 30


def visible_to(user) -> Q:
    """Public tournaments, and the private ones ``user`` made or entered (a subquery: a join
    on the entries would also narrow what a count of them sees)."""
    if user is None or not user.is_authenticated:
        return Q(is_public=True)
    entered = Entry.objects.filter(user=user).values("tournament")
    return Q(is_public=True) | Q(created_by=user) | Q(pk__in=entered)


def tournament_lists(user) -> dict[str, list[Tournament]]:
    rows = Tournament.objects.filter(visible_to(user))
    rows = rows.annotate(players=Count("entries"))
    return {
        "running": list(rows.filter(status=Tournament.Status.RUNNING).order_by("starts_at")),
        "upcoming": list(
            rows.filter(status=Tournament.Status.SCHEDULED).order_by("starts_at")[:LIST_LIMIT]
        ),
        "finished": list(
            rows.filter(
                status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]
            ).order_by("-finished_at")[:LIST_LIMIT]
        ),
    }


def public_schedule() -> dict[str, list[Tournament]]:
    """The public tournaments ahead: ``running`` and ``upcoming``, soonest first."""
    rows = Tournament.objects.filter(is_public=True).annotate(players=Count("entries"))
    return {
        "running": list(rows.filter(status=Tournament.Status.RUNNING).order_by("starts_at")),
        "upcoming": list(
            rows.filter(status=Tournament.Status.SCHEDULED).order_by("starts_at")[:LIST_LIMIT]
        ),
    }


def tournament_get(tournament_id: int) -> Tournament | None:
    return Tournament.objects.select_related("room").filter(pk=tournament_id).first()


def tournament_of_game(game_id: int, user) -> Tournament | None:
    """The tournament whose table ``game_id`` is, if ``user`` may see it."""
    rows = Tournament.objects.filter(visible_to(user), tables__game_id=game_id)
    return rows.distinct().first()


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    entry: Entry
    game_id: int | None  # the table they play at now


def standings(tournament: Tournament, *, limit: int | None = None) -> list[Row]:
    """Entries in the standings' order (tournaments.points) with their table in play; two
    queries whatever the number of players."""
    order = ARENA_ORDER if tournament.is_arena else SWISS_ORDER
    if tournament.status == Tournament.Status.FINISHED:
        order = ("place", "id")
    entries = tournament.entries.order_by(*order)
    if limit is not None:
        entries = entries[:limit]
    seated = dict(
        TableSeat.objects.filter(table__tournament=tournament, playing=True).values_list(
            "entry_id", "table__game_id"
        )
    )
    return [Row(i, e, seated.get(e.pk)) for i, e in enumerate(entries, 1)]


def tables_in_play(tournament: Tournament, *, first=(), limit: int = 12) -> tuple[list, int]:
    """Up to ``limit`` games being played now (the games ``first`` first, then the oldest):
    their id and players' names in seat order; and how many are being played. Three queries."""
    playing = Table.objects.filter(tournament=tournament, status=Table.Status.PLAYING)
    total = playing.count()
    chosen = list(dict.fromkeys(first))[:limit]
    if len(chosen) < limit:
        more = playing.exclude(game_id__in=chosen).order_by("id")
        chosen += list(more.values_list("game_id", flat=True)[: limit - len(chosen)])
    names = defaultdict(list)
    rows = TableSeat.objects.filter(table__tournament=tournament, table__game_id__in=chosen)
    for game_id, name in rows.order_by("seat").values_list("table__game_id", "entry__name"):
        names[game_id].append(name)
    return [{"game_id": g, "names": names[g]} for g in chosen if names[g]], total


def entry_of(tournament: Tournament, user) -> Entry | None:
    if user is None or not user.is_authenticated:
        return None
    return tournament.entries.filter(user=user).first()


def my_table(tournament: Tournament, user) -> int | None:
    """The game id of ``user``'s table in play in ``tournament``, if any."""
    return my_table_of(tournament.pk, user)


@dataclass(frozen=True, slots=True)
class PlayedTable:
    round: int
    game_id: int
    place: int | None
    points: int | None


def my_finished_tables(tournament: Tournament, user) -> list[PlayedTable]:
    """``user``'s finished tables in ``tournament``, oldest first, with their place and points
    (a table a moderator voided is left out: it scored nobody)."""
    if user is None or not user.is_authenticated:
        return []
    rows = TableSeat.objects.filter(
        table__tournament=tournament,
        table__status=Table.Status.FINISHED,
        table__game__isnull=False,
        entry__user=user,
    ).order_by("table_id")
    return [
        PlayedTable(*row)
        for row in rows.values_list("table__round", "table__game_id", "place", "points")
    ]


def my_table_of(tournament_id: int, user) -> int | None:
    """The game id of ``user``'s table in play in the tournament ``tournament_id``, if any."""
    if user is None or not user.is_authenticated:
        return None
    return (
        TableSeat.objects.filter(table__tournament_id=tournament_id, entry__user=user, playing=True)
        .values_list("table__game_id", flat=True)
        .first()
    )


def podium(tournament: Tournament) -> list[Entry]:
    if tournament.status != Tournament.Status.FINISHED:
        return []
    return list(tournament.entries.filter(place__lte=3).order_by("place"))


def player_figures(user_id: int) -> dict:
    """``tournaments`` played (finished), ``best`` place (``None``: none yet), ``points``."""
    rows = Entry.objects.filter(
        user_id=user_id, tournament__status=Tournament.Status.FINISHED, games__gt=0
    )
    figures = rows.aggregate(played=Count("id"), top=Min("place"), total=Sum("points"))
    return {
        "tournaments": figures["played"],
        "best": figures["top"],
        "points": figures["total"] or 0,
    }
