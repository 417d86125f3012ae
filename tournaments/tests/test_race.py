"""Two processes step one arena at once: nobody is seated twice. A table's last move (which
scores it under the tournament's lock) and a step holding that lock that opens tables never
deadlock: the step takes no lobby or game lock (tournaments.locks). Needs PostgreSQL."""

import random
import threading
from datetime import timedelta

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from games import engine
from games import services as games_services
from games.models import Game
from tournaments import locks
from tournaments.models import Table, TableSeat
from tournaments.services import tournament_create, tournament_join, tournament_step

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL: scripts/test runs this on PostgreSQL (DATABASE_URL)",
    ),
]


def _arena(host, users, bots):
    made = tournament_create(
        by=host,
        name="Race",
        kind="arena",
        starts_at=timezone.now(),
        duration=30,
        turn_clock=15,
        end_score=1,
        bots=bots,
        bot_level="easy",
        table_max=2,
    )
    for user in users:
        tournament_join(tournament_id=made.pk, user=user, invite_code=made.invite_code)
    return made


def _together(calls):
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=10)
            outcomes[i] = call()
        except Exception as exc:  # noqa: BLE001 - the test looks at it
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.mark.parametrize("attempt", range(3))
def test_two_processes_stepping_one_arena_seat_nobody_twice(alice, bob, charlie, attempt):
    made = _arena(alice, [alice, bob, charlie], bots=5)
    now = made.starts_at + timedelta(seconds=1)
    outcomes = _together([lambda: tournament_step(tournament_id=made.pk, now=now)] * 3)
    assert not any(isinstance(o, Exception) for o in outcomes), outcomes
    seats = TableSeat.objects.filter(table__tournament=made)
    entries = list(seats.values_list("entry_id", flat=True))
    assert len(entries) == len(set(entries)) == 8
    assert Table.objects.filter(tournament=made).count() == 4


def _one_move_from_the_end(game_id, users):
    """Random legal steps until the next one would end the game: its user, action, version."""
    rng = random.Random(7)
    while True:
        row = Game.objects.get(pk=game_id)
        state = engine.from_snapshot(row.snapshot)
        seat = state.to_act()[0] if state.phase != engine.ROUND_OVER else None
        if seat is None:
            for user in users.values():
                games_services.game_set_ready(game_id=game_id, user=user)
            continue
        step = rng.choice(state.legal_actions(seat))
        trial = state.copy()
        trial.apply(seat, step)
        if trial.finished:
            return users[seat], step.to_json(), row.version
        games_services.game_apply_action(
            game_id=game_id, user=users[seat], action=step.to_json(), version=row.version
        )


def test_a_tables_last_move_and_a_step_opening_tables_never_deadlock(alice, bob, charlie):
    made = _arena(alice, [alice, bob], bots=0)
    tournament_step(tournament_id=made.pk, now=made.starts_at)
    table = Table.objects.get(tournament=made)
    players = dict(table.game.players.values_list("seat", "user_id"))
    users = {seat: {alice.pk: alice, bob.pk: bob}[uid] for seat, uid in players.items()}
    user, action, version = _one_move_from_the_end(table.game_id, users)
    holding, release = threading.Event(), threading.Event()

    def step_holding_the_lock():
        with transaction.atomic():
            tournament = locks.tournament(made.pk)
            holding.set()
            release.wait(timeout=5)  # the last move now waits for this lock
            games_services.table_open(  # as a step does: inserts only
                name="x",
                players=[(charlie, ""), (None, "easy")],
                is_public=False,
                end_score=10,
                double_on_tie=True,
                final_reveal_clears_columns=True,
                turn_clock=15,
                disconnect_grace=60,
                rated=True,
            )
            return tournament.pk

    def last_move():
        holding.wait(timeout=5)
        threading.Timer(0.5, release.set).start()
        return games_services.game_apply_action(
            game_id=table.game_id, user=user, action=action, version=version
        )

    outcomes = _together([step_holding_the_lock, last_move])
    assert not any(isinstance(o, Exception) for o in outcomes), outcomes
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert sorted(table.seats.values_list("place", flat=True)) in ([1, 1], [1, 2])
