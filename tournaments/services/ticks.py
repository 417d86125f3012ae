"""The tournaments' clock, called by the bot runner of every process (web.runner): start the
tournaments due, withdraw no-shows and banned players, seat free arena players, start the next
Swiss round, score tables whose game ended otherwise, and end tournaments.

Each tournament is stepped holding its lock, taken with skip locked: two processes never step
one tournament at once, and a step only inserts games (tournaments.locks). A seat is also
guarded by a unique index (an entry at one playing table at most). Every step reads the saved
rows only, so that a restarted server resumes where it was.
"""

import logging
import random
from collections import defaultdict
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games import services as games_services
from games.models import Game, GamePlayer
from stats import recording as stats_recording
from tournaments import locks, pairing, points, publish, timing
from tournaments.models import Entry, Table, TableSeat, Tournament
from tournaments.services.creation import next_of
from tournaments.services.entries import bump, withdraw
from tournaments.services.results import table_close

log = logging.getLogger(__name__)

GATHER = timedelta(seconds=10)  # an arena waits this long for a full table before a smaller one


def tournaments_tick(*, now=None) -> int:
    """Step every tournament that is due or running; returns how many were stepped."""
    now = now or timezone.now()
    ids = Tournament.objects.filter(
        Q(status=Tournament.Status.RUNNING)
        | Q(status=Tournament.Status.SCHEDULED, starts_at__lte=now)
    ).values_list("pk", flat=True)
    stepped = 0
    for tournament_id in list(ids):
        try:
            stepped += tournament_step(tournament_id=tournament_id, now=now)
        except Exception:
            log.exception("tournament %s: a step failed", tournament_id)
    return stepped


def tournament_step(*, tournament_id: int, now=None) -> bool:
    """One step of one tournament; ``False`` when another process holds it."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locks.due(tournament_id)
        if tournament is None:
            return False
        if tournament.status == Tournament.Status.SCHEDULED:
            if tournament.starts_at > now:
                return True
            _start(tournament, now)
        if tournament.status != Tournament.Status.RUNNING:
            return True
        _close_ended_otherwise(tournament)
        _withdraw_gone(tournament, now)
        if tournament.is_arena:
            _arena(tournament, now)
        else:
            _swiss(tournament, now)
    return True


def _start(tournament: Tournament, now) -> None:
    tournament.status, tournament.started_at = Tournament.Status.RUNNING, now
    tournament.save(update_fields=["status", "started_at"])
    Entry.objects.filter(tournament=tournament).update(free_since=now)
    next_of(tournament)
    bump(tournament)


def _close_ended_otherwise(tournament: Tournament) -> None:
    """Tables whose game is over but was not scored (stopped, voided): void."""
    stale = Table.objects.filter(
        tournament=tournament, status=Table.Status.PLAYING, game__status=Game.Status.ABORTED
    )
    for table in stale:
        table_close(tournament, table, None)


def _withdraw_gone(tournament: Tournament, now) -> None:
    """Withdraw the banned, the deleted, and the seated who never came to their table within
    the grace (a bot plays their seat for that game: games.presence)."""
    entries = tournament.entries.exclude(status=Entry.Status.WITHDRAWN)
    gone = entries.filter(Q(user__is_banned=True) | Q(user__isnull=True, bot_level=""))
    for entry in gone:
        withdraw(entry, "banned" if entry.user_id else "deleted")
    late = now - timedelta(seconds=tournament.disconnect_grace)
    absent = GamePlayer.objects.filter(
        game__tournament_table__tournament=tournament,
        game__tournament_table__status=Table.Status.PLAYING,
        game__created_at__lte=late,
        user__isnull=False,
        last_seen__isnull=True,
        connections=0,
    ).values_list("game_id", "seat")
    wanted = Q()
    for game_id, seat in absent:
        wanted |= Q(table__game_id=game_id, seat=seat)
    no_shows = (
        list(TableSeat.objects.filter(wanted, no_show=False).values_list("pk", "entry_id"))
        if wanted
        else []
    )
    if no_shows:
        TableSeat.objects.filter(pk__in=[pk for pk, _entry in no_shows]).update(no_show=True)
        entries.filter(pk__in=[entry for _pk, entry in no_shows]).update(
            status=Entry.Status.WITHDRAWN, withdrawn_because="no_show"
        )
    if gone or no_shows:
        bump(tournament)


def _arena(tournament: Tournament, now) -> None:
    playing = tournament.tables.filter(status=Table.Status.PLAYING).exists()
    if now >= tournament.ends_at:
        if not playing:
            _finish(tournament, now)
        return
    free = list(tournament.entries.filter(status=Entry.Status.ACTIVE).exclude(seats__playing=True))
    if len(free) < tournament.table_min:
        return
    waited = now - min(e.free_since or now for e in free)
    if len(free) < tournament.table_max and waited < GATHER:
        return
    left = (tournament.ends_at - now).total_seconds()
    low, high = tournament.table_min, tournament.table_max
    while high >= low:  # the biggest tables whose games can end before the arena does
        seconds = timing.game_seconds(
            seats=high, turn_clock=tournament.turn_clock, end_score=tournament.end_score
        )
        if seconds <= left:
            break
        high -= 1
    if high < low:
        return
    tables, _waiting = pairing.pair(players_for_pairing(tournament, free), low, high)
    _open(tournament, tables, {e.pk: e for e in free}, round_=0)


def _swiss(tournament: Tournament, now) -> None:
    if tournament.tables.filter(status=Table.Status.PLAYING).exists():
        return
    _swiss_buchholz(tournament)
    if tournament.round >= tournament.rounds:
        _finish(tournament, now)
        return
    players = list(tournament.entries.filter(status=Entry.Status.ACTIVE))
    if tournament.round == 0 and len(players) < tournament.table_min:
        tournament.status, tournament.finished_at = Tournament.Status.CANCELLED, now
        tournament.save(update_fields=["status", "finished_at"])
        bump(tournament)
        return
    tournament.round += 1
    tournament.save(update_fields=["round"])
    tables, byes = pairing.pair(
        players_for_pairing(tournament, players), tournament.table_min, tournament.table_max
    )
    by_id = {e.pk: e for e in players}
    for entry_id in byes:
        entry = by_id[entry_id]
        entry.points += points.BYE_POINTS
        entry.byes += 1
        entry.save(update_fields=["points", "byes"])
    _open(tournament, tables, by_id, round_=tournament.round)
    if not tables:  # everybody had a bye: the round is over at once
        bump(tournament)


def _swiss_buchholz(tournament: Tournament) -> None:
    entries = list(tournament.entries.all())
    opponents = _opponents(tournament)
    scores = points.buchholz({e.pk: e.points for e in entries}, opponents)
    changed = [e for e in entries if e.buchholz != scores.get(e.pk, 0)]
    for entry in changed:
        entry.buchholz = scores.get(entry.pk, 0)
    Entry.objects.bulk_update(changed, ["buchholz"])


def _opponents(tournament: Tournament) -> dict[int, list[int]]:
    """Entry id -> the entry ids met, once per table together, oldest table first."""
    at = defaultdict(list)
    rows = TableSeat.objects.filter(table__tournament=tournament).order_by("table_id")
    for table_id, entry_id in rows.values_list("table_id", "entry_id"):
        at[table_id].append(entry_id)
    met = defaultdict(list)
    for seated in at.values():
        for entry_id in seated:
            met[entry_id].extend(o for o in seated if o != entry_id)
    return met


def players_for_pairing(tournament: Tournament, entries) -> list[pairing.Player]:
    """``entries`` as pairing.Player: points, rating, who they met and their last opponents
    (one query over the tournament's seats)."""
    at = defaultdict(list)
    last_table = {}
    rows = TableSeat.objects.filter(table__tournament=tournament).order_by("table_id")
    for table_id, entry_id in rows.values_list("table_id", "entry_id"):
        at[table_id].append(entry_id)
        last_table[entry_id] = table_id
    met = defaultdict(lambda: defaultdict(int))
    for seated in at.values():
        for a in seated:
            for b in seated:
                if a != b:
                    met[a][b] += 1
    return [
        pairing.Player(
            id=e.pk,
            points=e.points,
            rating=e.rating,
            met=dict(met[e.pk]),
            last=frozenset(o for o in at.get(last_table.get(e.pk), ()) if o != e.pk),
            byes=e.byes,
        )
        for e in entries
    ]


def _open(tournament: Tournament, tables, entries: dict[int, Entry], *, round_: int) -> None:
    """Open a game per table of entry ids, seats in a random order; tell the seated."""
    told = {}
    for number, ids in enumerate(tables, 1):
        ids = list(ids)
        random.shuffle(ids)
        seated = [entries[i] for i in ids]
        label = f"{tournament.name} · {round_ or ''}{'.' if round_ else ''}{number}"
        game = games_services.table_open(
            name=label,
            players=[(e.user, e.bot_level) for e in seated],
            is_public=tournament.is_public,
            end_score=tournament.end_score,
            double_on_tie=tournament.double_on_tie,
            final_reveal_clears_columns=tournament.final_reveal_clears_columns,
            turn_clock=tournament.turn_clock,
            disconnect_grace=tournament.disconnect_grace,
            rated=tournament.rated,
        )
        table = Table.objects.create(tournament=tournament, round=round_, game=game)
        TableSeat.objects.bulk_create(
            TableSeat(table=table, entry=e, seat=i) for i, e in enumerate(seated)
        )
        told.update({e.user_id: game.pk for e in seated if e.user_id})
    if tables:
        publish.seated(tournament.pk, told)
        bump(tournament)


def _finish(tournament: Tournament, now) -> None:
    entries = list(tournament.entries.all())
    rows = [
        points.Standing(
            id=e.pk,
            points=e.points,
            wins=e.wins,
            games=e.games,
            rating=e.rating,
            joined=e.pk,
            buchholz=e.buchholz,
        )
        for e in entries
    ]
    order = points.arena_order(rows) if tournament.is_arena else points.swiss_order(rows)
    by_id = {e.pk: e for e in entries}
    for place, row in enumerate(order, 1):
        by_id[row.id].place = place
    Entry.objects.bulk_update(entries, ["place"])
    tournament.status, tournament.finished_at = Tournament.Status.FINISHED, now
    tournament.save(update_fields=["status", "finished_at"])
    stats_recording.figures_changed(e.user_id for e in entries)  # their profiles show it
    bump(tournament)
