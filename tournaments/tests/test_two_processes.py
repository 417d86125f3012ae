"""An arena and a Swiss event run end to end on two real Daphne processes (PostgreSQL, Redis),
each with its bot runner stepping the tournaments: players and bots seated, games played (the
humans play their own turns on sockets to one process or the other, the bots are played by
both runners), no one seated twice, every table scored once, the final places.

The servers keep their database connections (``SERVER``), their runners pass often and the
bots play at once (``fast_servers``): the games are paced by the moves, not by waiting."""

import asyncio
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async as db
from django.db import connection
from django.utils import timezone

from games.models import GamePlayer, Move
from games.tests.live import Player, daphne, play_seat, session_cookie, start_daphne, stop
from tournaments.models import Table, TableSeat, Tournament
from tournaments.services import tournament_create, tournament_join

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="two processes on one database: scripts/test runs this on PostgreSQL",
    ),
]

GRACE = 5  # seconds a seated player may take to open their table
SERVER = {"persistent": True}  # connections kept, as deployed: a runner pass costs no connect


@pytest.fixture(autouse=True)
def fast_servers(settings, monkeypatch):
    """In the servers forked from here: a runner pass every 20 ms, the tournaments stepped
    every 200 ms, no bot delay."""
    from web import runner

    settings.SKYJO_AUTOPLAY_INTERVAL = 0.02
    monkeypatch.setattr(runner, "TOURNAMENT_EVERY", 0.2)
    monkeypatch.setenv("SKYJO_TEST_BOT_DELAY", "0")


def _make(host, players, **options):
    made = tournament_create(
        by=host,
        name="Two servers",
        starts_at=timezone.now(),
        turn_clock=15,
        end_score=5,
        bots=4,
        bot_level="easy",
        table_max=3,
        **options,
    )
    Tournament.objects.filter(pk=made.pk).update(disconnect_grace=GRACE)
    for user in players:
        tournament_join(tournament_id=made.pk, user=user, invite_code=made.invite_code)
    return made


def _new_tables(tournament_id: int, seen: set) -> list[tuple[int, int, int]]:
    """(game id, user id, seat) of the players' seats at tables not seen before."""
    rows = TableSeat.objects.filter(
        table__tournament_id=tournament_id, playing=True, entry__user__isnull=False
    ).values_list("table__game_id", "entry__user_id")
    new = [row for row in rows if row not in seen]
    seats = {
        (p.game_id, p.user_id): p.seat
        for p in GamePlayer.objects.filter(game_id__in=[g for g, _u in new])
    }
    return [(game_id, user_id, seats[game_id, user_id]) for game_id, user_id in new]


def _status(tournament_id: int) -> Tournament:
    return Tournament.objects.get(pk=tournament_id)


def _check(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.get(pk=tournament_id)
    assert tournament.status == Tournament.Status.FINISHED
    tables = list(tournament.tables.all())
    assert tables and all(t.status == Table.Status.FINISHED for t in tables)
    for entry in tournament.entries.all():
        seats = list(entry.seats.select_related("table").order_by("table__created_at"))
        assert entry.games == len(seats)
        assert entry.points == sum(s.points for s in seats)
        for before, after in zip(seats, seats[1:], strict=False):  # never at two tables at once
            assert before.table.finished_at <= after.table.created_at
    assert sorted(tournament.entries.values_list("place", flat=True)) == list(
        range(1, tournament.entries.count() + 1)
    )
    humans = TableSeat.objects.filter(table__tournament=tournament, entry__user__isnull=False)
    assert humans.exists() and not humans.filter(no_show=True).exists()
    return tournament


async def _sit_and_play(cookie: str, port: int, game_id: int, seat: int) -> int:
    player = Player(cookie, port, game_id)
    try:
        await player.open()
        return await play_seat(player, seat)
    finally:
        await player.close()


async def _drive(tournament_id, users, ports, *, until, timeout=240):
    """Sit each player at their new table on one process or the other and play their turns
    there, until ``until(tournament)``; returns the steps each user played (user id -> steps),
    the sockets still open closed."""
    cookies = {u.pk: await db(session_cookie)(u) for u in users}
    seen, turn, playing = set(), 0, {}
    played = dict.fromkeys(cookies, 0)
    started = time.monotonic()
    try:
        while time.monotonic() - started < timeout:
            for game_id, user_id, seat in await db(_new_tables)(tournament_id, seen):
                seen.add((game_id, user_id))
                port = ports[turn % 2]
                turn += 1
                task = asyncio.create_task(_sit_and_play(cookies[user_id], port, game_id, seat))
                playing[task] = user_id
            for task in [t for t in playing if t.done()]:
                played[playing.pop(task)] += task.result()
            tournament = await db(_status)(tournament_id)
            if await db(until)(tournament):
                return played
            await asyncio.sleep(0.1)
        raise AssertionError("the tournament did not end in time")
    finally:
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)


def _over(tournament) -> bool:
    return tournament.status == Tournament.Status.FINISHED


async def test_a_swiss_event_runs_on_two_processes(alice, bob, redis_everywhere):
    made = await db(_make)(alice, [alice, bob], kind="swiss", rounds=2)
    async with daphne(**SERVER) as port_a, daphne(**SERVER) as port_b:
        played = await _drive(made.pk, [alice, bob], (port_a, port_b), until=_over)
    tournament = await db(_check)(made.pk)
    assert all(played.values()), played  # each human played steps of their own
    assert tournament.round == 2
    assert await db(tournament.tables.count)() == 4  # six players, tables of 3: two a round


async def test_an_arena_runs_on_two_processes(alice, bob, redis_everywhere):
    made = await db(_make)(alice, [alice, bob], kind="arena", duration=30)

    def second_wave_then_end(tournament) -> bool:
        if _over(tournament):
            return True
        if Table.objects.filter(tournament=tournament).count() >= 4:  # end it now: 30 min back
            moved = timezone.now() - timedelta(minutes=30)
            Tournament.objects.filter(pk=tournament.pk, starts_at__gt=moved).update(starts_at=moved)
        return False

    async with daphne(**SERVER) as port_a, daphne(**SERVER) as port_b:
        played = await _drive(made.pk, [alice, bob], (port_a, port_b), until=second_wave_then_end)
    tournament = await db(_check)(made.pk)
    assert all(played.values()), played
    assert await db(tournament.tables.count)() >= 4


async def test_a_swiss_event_resumes_after_its_only_server_restarts(alice, bob, redis_everywhere):
    """The server stops in the middle of round 1; a new one goes on: no table lost or opened
    twice, the round's games played to their end, round 2, the places."""
    made = await db(_make)(alice, [alice, bob], kind="swiss", rounds=2)

    def round_one_under_way(tournament) -> bool:  # its tables open, moves played there
        return Move.objects.filter(game__tournament_table__tournament=tournament).exists()

    first = await asyncio.to_thread(start_daphne, **SERVER)
    port = first.port.value
    try:
        await _drive(made.pk, [alice, bob], (port, port), until=round_one_under_way)
    finally:
        await asyncio.to_thread(stop, first)
    tables = await db(
        lambda: sorted(Table.objects.filter(tournament_id=made.pk).values_list("pk", flat=True))
    )()
    assert len(tables) == 2
    async with daphne(**SERVER) as again:  # the players come back to their round 1 tables
        played = await _drive(made.pk, [alice, bob], (again, again), until=_over)
    tournament = await db(_check)(made.pk)
    assert all(played.values()), played
    assert tournament.round == 2
    rounds = await db(
        lambda: list(Table.objects.filter(tournament=tournament).values_list("round", "pk"))
    )()
    assert sorted(r for r, _pk in rounds) == [1, 1, 2, 2]
    assert sorted(pk for r, pk in rounds if r == 1) == tables
