"""A Swiss event end to end on the services: every round at once, the next when all its tables
have ended, byes for the players a table size leaves out, Buchholz, the final places."""

import pytest
from django.utils import timezone

from tournaments import points
from tournaments.models import Table, TableSeat, Tournament
from tournaments.services import tournament_create, tournament_join, tournaments_tick
from tournaments.tests.helpers import play_games_out, run, show_up

pytestmark = pytest.mark.django_db


def _swiss(host, **options):
    settings = {
        "name": "Swiss night",
        "kind": "swiss",
        "starts_at": timezone.now(),
        "rounds": 3,
        "turn_clock": 15,
        "end_score": 10,
        "bots": 2,
        "bot_level": "easy",
    }
    settings.update(options)
    tournament = tournament_create(by=host, **settings)
    return tournament


def _join(tournament, *users):
    for user in users:
        tournament_join(tournament_id=tournament.pk, user=user, invite_code=tournament.invite_code)


def test_a_swiss_event_plays_its_rounds_and_ends_with_places(alice, bob, charlie):
    tournament = _swiss(alice)
    _join(tournament, alice, bob, charlie)
    run(tournament, start=tournament.starts_at, users=[alice, bob, charlie])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.round == 3
    for number in (1, 2, 3):
        tables = tournament.tables.filter(round=number)
        assert sorted(t.seats.count() for t in tables) == [2, 3]  # five players: 3 + 2
        assert all(t.status == Table.Status.FINISHED for t in tables)
    entries = list(tournament.entries.all())
    assert sorted(e.place for e in entries) == [1, 2, 3, 4, 5]
    for entry in entries:
        assert entry.games == 3
        assert entry.points == sum(s.points for s in entry.seats.all())
    # Buchholz: the points of every opponent met, once per game
    met = {}
    for seat in TableSeat.objects.filter(table__tournament=tournament):
        others = seat.table.seats.exclude(pk=seat.pk).values_list("entry_id", flat=True)
        met.setdefault(seat.entry_id, []).extend(others)
    expected = points.buchholz({e.pk: e.points for e in entries}, met)
    assert {e.pk: e.buchholz for e in entries} == expected
    first = min(entries, key=lambda e: e.place)
    assert first.points == max(e.points for e in entries)


def test_a_round_waits_for_its_last_table_and_byes_score_two(alice, bob, charlie):
    tournament = _swiss(alice, bots=2, table_min=4, table_max=4, rounds=2)
    _join(tournament, alice, bob, charlie)  # five players, tables of four: one bye a round
    now = tournament.starts_at
    tournaments_tick(now=now)
    tournament.refresh_from_db()
    assert tournament.round == 1
    byes = [e for e in tournament.entries.all() if e.byes]
    assert len(byes) == 1 and byes[0].points == points.BYE_POINTS
    tournaments_tick(now=now)  # the table still plays: no second round
    tournament.refresh_from_db()
    assert tournament.round == 1 and tournament.tables.count() == 1
    show_up(tournament, [alice, bob, charlie])
    play_games_out()
    tournaments_tick(now=now)
    tournament.refresh_from_db()
    assert tournament.round == 2
    second = [e for e in tournament.entries.all() if e.byes]
    assert len(second) == 2  # another player has the bye: nobody has two
    assert all(e.byes == 1 for e in second)


def test_a_swiss_event_without_enough_players_is_cancelled(alice):
    tournament = _swiss(alice, bots=0)
    _join(tournament, alice)
    tournaments_tick(now=tournament.starts_at)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
