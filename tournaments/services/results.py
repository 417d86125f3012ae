"""A table's game ended: its seats' places and points, heard from games.signals inside the
transaction that ends the game (after the game's rows: the lock order), or found by the tick
for a game that ended otherwise (stopped by a moderator: the table is void, nobody scores).

Places come from the game's totals (tournaments.points); a resigned seat is last. A no-show's
seat (played by a bot) scores 0 points and counts as a game played."""

from django.utils import timezone

from tournaments import locks, points, publish
from tournaments.models import Entry, Table, TableSeat, Tournament
from tournaments.services.entries import bump


def game_finished(*, game, players, **kwargs) -> None:
    """Receiver of games.signals.game_finished."""
    totals = {p.seat: p.total for p in players}
    _record(game.pk, totals, resigned=None)


def game_resigned(*, game, players, seat, **kwargs) -> None:
    """Receiver of games.signals.game_resigned: ``seat`` is last."""
    totals = {p.seat: p.total for p in players}
    _record(game.pk, totals, resigned=seat)


def _record(game_id: int, totals: dict[int, int], *, resigned: int | None) -> None:
    table = Table.objects.filter(game_id=game_id, status=Table.Status.PLAYING).first()
    if table is None:
        return
    tournament = locks.tournament(table.tournament_id)
    table_close(tournament, table, totals, resigned=resigned)


def table_close(tournament: Tournament, table: Table, totals, *, resigned=None) -> None:
    """Score ``table`` (``totals``: game seat -> final total; ``None``: void) under the
    tournament's lock; a conditional write, so a table is scored once."""
    now = timezone.now()
    status = Table.Status.VOID if totals is None else Table.Status.FINISHED
    won = Table.objects.filter(pk=table.pk, status=Table.Status.PLAYING).update(
        status=status, finished_at=now
    )
    if not won:
        return
    seats = list(table.seats.select_related("entry"))
    size = len(seats)
    if totals is not None:
        big = max(totals.values()) + 1
        ranked = [big if s.seat == resigned else totals[s.seat] for s in seats]
        places = points.places(ranked)
    for i, seat in enumerate(seats):
        entry = seat.entry
        seat.playing = False
        if entry.status == Entry.Status.ACTIVE or not tournament.is_arena:
            entry.free_since = now
        if totals is None:
            continue
        seat.place = places[i]
        if seat.no_show:
            seat.points = 0
            entry.streak = 0
        elif tournament.is_arena:
            scored = points.arena_points(seat.place, size, entry.streak)
            seat.points, entry.streak = scored.points, scored.streak
        else:
            seat.points = points.place_points(seat.place, size)
        entry.points += seat.points
        entry.games += 1
        entry.wins += seat.place == 1 and not seat.no_show
    TableSeat.objects.bulk_update(seats, ["playing", "place", "points"])
    Entry.objects.bulk_update(
        [s.entry for s in seats], ["points", "games", "wins", "streak", "free_since"]
    )
    publish.table_over(tournament.pk, [s.entry.user_id for s in seats if s.entry.user_id])
    bump(tournament)
