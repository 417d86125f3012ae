"""An arena end to end on the services: players and bots seated, games played by the runner,
points and streaks, pause, withdraw, a no-show, a ban, the end and the final places."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from stats.models import GameResult
from tournaments import points, selectors
from tournaments.models import Entry, Table, TableSeat, Tournament
from tournaments.services import (
    entry_pause,
    entry_withdraw,
    tournament_create,
    tournament_join,
    tournaments_tick,
)
from tournaments.tests.helpers import play_games_out, run, show_up

pytestmark = pytest.mark.django_db


def _arena(host, **options):
    settings = {
        "name": "Friday arena",
        "kind": "arena",
        "starts_at": timezone.now(),
        "duration": 30,
        "turn_clock": 15,
        "end_score": 10,
        "bots": 3,
        "bot_level": "easy",
    }
    settings.update(options)
    return tournament_create(by=host, **settings)


def _join(tournament, *users):
    for user in users:
        tournament_join(tournament_id=tournament.pk, user=user, invite_code=tournament.invite_code)


def _check_seats(tournament):
    """Nobody at two tables at once; table sizes in range; every game's players are the table's."""
    for table in tournament.tables.select_related("game"):
        seats = list(table.seats.all())
        assert tournament.table_min <= len(seats) <= tournament.table_max
        players = list(table.game.players.order_by("seat"))
        assert [p.seat for p in players] == [s.seat for s in seats]
        for seat, player in zip(seats, players, strict=True):
            assert player.user_id == seat.entry.user_id
        assert table.game.lobby.turn_clock == tournament.turn_clock
    assert TableSeat.objects.filter(table__tournament=tournament, playing=True).count() == len(
        set(
            TableSeat.objects.filter(table__tournament=tournament, playing=True).values_list(
                "entry_id", flat=True
            )
        )
    )


def test_an_arena_of_players_and_bots_runs_to_its_podium(alice, bob, charlie):
    tournament = _arena(alice)
    _join(tournament, alice, bob, charlie)
    start = tournament.starts_at
    # Waves at 0, 14 and 28 minutes: the last with 2 minutes left, when only tables of 2 fit.
    end = run(tournament, start=start, step=timedelta(minutes=14), users=[alice, bob, charlie])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert end >= tournament.ends_at
    _check_seats(tournament)
    tables = list(tournament.tables.all())
    assert len(tables) >= 4
    assert all(t.status == Table.Status.FINISHED for t in tables)
    assert all(t.game.status == Game.Status.FINISHED for t in tables)
    # every seat scored by its place; an entry's points are its seats' points
    for entry in tournament.entries.all():
        seats = list(entry.seats.order_by("table_id"))
        assert entry.games == len(seats) > 0
        assert entry.points == sum(s.points for s in seats)
        streak = 0
        for seat in seats:
            scored = points.arena_points(seat.place, seat.table.seats.count(), streak)
            assert seat.points == scored.points
            streak = scored.streak
    places = sorted(tournament.entries.values_list("place", flat=True))
    assert places == list(range(1, 7))
    podium = selectors.podium(tournament)
    assert [e.place for e in podium] == [1, 2, 3]
    ordered = selectors.standings(tournament)
    assert [r.entry.points for r in ordered] == sorted(
        (r.entry.points for r in ordered), reverse=True
    )
    # the games count in the players' statistics; no table opened whose game could not end
    assert GameResult.objects.filter(user=alice).count() == alice.tournament_entries.get().games
    last = max(t.created_at for t in tables)
    assert last < tournament.ends_at
    figures = selectors.player_figures(alice.pk)
    assert figures["tournaments"] == 1 and figures["best"] >= 1


def test_a_paused_player_is_not_seated_until_back_and_a_withdrawn_one_never(alice, bob, charlie):
    tournament = _arena(alice, bots=2, table_min=2, table_max=2)
    _join(tournament, alice, bob, charlie)
    now = tournament.starts_at
    entry_pause(tournament_id=tournament.pk, user=bob, paused=True)
    entry_withdraw(tournament_id=tournament.pk, user=charlie)
    tournaments_tick(now=now + timedelta(seconds=11))
    seated = TableSeat.objects.filter(table__tournament=tournament, playing=True)
    users = set(seated.values_list("entry__user_id", flat=True))
    assert bob.pk not in users and charlie.pk not in users and alice.pk in users
    assert seated.count() == 2  # alice and two bots free: one table of 2, a bot waits
    show_up(tournament, [alice])
    play_games_out()
    entry_pause(tournament_id=tournament.pk, user=bob, paused=False)
    tournaments_tick(now=now + timedelta(minutes=1))
    assert TableSeat.objects.filter(entry__user=bob, playing=True).exists()
    assert not TableSeat.objects.filter(entry__user=charlie).exists()


def test_a_no_show_is_withdrawn_after_the_grace_and_a_bot_plays_their_seat(alice, bob):
    tournament = _arena(alice, bots=0, table_max=2)
    _join(tournament, alice, bob)
    now = tournament.starts_at
    tournaments_tick(now=now)
    show_up(tournament, [alice])  # bob never comes
    tournaments_tick(now=now + timedelta(seconds=tournament.disconnect_grace + 1))
    bob_entry = Entry.objects.get(user=bob)
    assert bob_entry.status == Entry.Status.WITHDRAWN
    assert bob_entry.withdrawn_because == "no_show"
    play_games_out()  # the medium bot plays bob's seat to the end
    seat = TableSeat.objects.get(entry=bob_entry)
    assert seat.no_show and seat.points == 0 and not seat.playing
    assert Entry.objects.get(user=alice).points == 4 or seat.place == 1


def test_a_banned_player_is_withdrawn_and_their_game_plays_on(alice, bob, charlie):
    tournament = _arena(alice, bots=1, table_max=4)
    _join(tournament, alice, bob, charlie)
    now = tournament.starts_at
    tournaments_tick(now=now)
    show_up(tournament, [alice, bob, charlie])
    charlie.ban(reason="cheating")
    tournaments_tick(now=now + timedelta(seconds=1))
    assert Entry.objects.get(user=charlie).withdrawn_because == "banned"
    play_games_out()
    assert TableSeat.objects.get(entry__user=charlie).place is not None
    tournaments_tick(now=now + timedelta(minutes=1))
    assert not TableSeat.objects.filter(entry__user=charlie, playing=True).exists()


def test_a_restart_resumes_without_seating_anyone_twice(alice, bob):
    """The ticks read saved rows only: a new process (a fresh tick) goes on where it was."""
    tournament = _arena(alice, bots=2, table_max=2)
    _join(tournament, alice, bob)
    now = tournament.starts_at
    tournaments_tick(now=now)
    tables = tournament.tables.count()
    tournaments_tick(now=now)  # as a second process, or after a restart: nothing new
    tournaments_tick(now=now + timedelta(seconds=30))
    assert tournament.tables.count() == tables == 2
    show_up(tournament, [alice, bob])
    play_games_out()
    tournaments_tick(now=now + timedelta(minutes=1))
    assert tournament.tables.count() == 4


def test_an_unrated_tournaments_games_leave_ratings_alone(alice, bob):
    tournament = _arena(alice, bots=0, table_max=2, rated=False)
    _join(tournament, alice, bob)
    tournaments_tick(now=tournament.starts_at)
    show_up(tournament, [alice, bob])
    before = {u.pk: (u.rating_mu, u.rating_sigma) for u in (alice, bob)}
    play_games_out()
    table = tournament.tables.get()
    assert table.status == Table.Status.FINISHED and not table.game.lobby.rated
    for user in (alice, bob):
        user.refresh_from_db()
        assert (user.rating_mu, user.rating_sigma) == before[user.pk]
    assert GameResult.objects.filter(game=table.game).count() == 2  # still in the statistics


def test_a_rated_tournaments_games_change_ratings(alice, bob):
    tournament = _arena(alice, bots=0, table_max=2)
    _join(tournament, alice, bob)
    tournaments_tick(now=tournament.starts_at)
    show_up(tournament, [alice, bob])
    play_games_out()
    alice.refresh_from_db()
    assert alice.rating_sigma < 25 / 3
