"""A server process killed with SIGKILL in the middle of a 4-player game (issue 9, item 7).

Two Daphne processes share PostgreSQL and Redis, as in docs/deployment.md; two players sit on
each. During the game the first process is killed with ``kill -9`` right after one of its
players sent a step, and a fresh process takes its place in the address list (as systemd's
``Restart=always`` would bring it back); later the second process is killed the same way. The
players (games.tests.failover) reconnect by themselves to the next address and play on. Every
step a player saw acknowledged must be stored as that version's move, nothing more may be
stored, and the game must finish with the record showing what the players last saw.
"""

import asyncio
import os
import signal
import uuid

import pytest
from channels.db import database_sync_to_async as db
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import connection, connections

from games import engine
from games.models import Game, Move
from games.records import game_record
from games.tests.failover import FailoverPlayer, Table
from games.tests.helpers import start_game
from games.tests.live import session_cookie, start_daphne, stop
from skyjo_site.layers import redis_channel_layer

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="several server processes need PostgreSQL: scripts/test runs this on PostgreSQL",
    ),
]

SEATS = 4
KILLS_AT = (30, 70)  # steps played before each kill: both in round 1 (88 steps at least)


@pytest.fixture
def production_layer(settings, redis_url):
    """The site's Redis layer settings in this process and the servers forked from it, with a
    prefix of its own (other runs may share the Redis), and persistent database connections
    as docs/deployment.md advises (only the forked servers open them)."""
    from channels.layers import channel_layers

    layer = redis_channel_layer(redis_url)
    layer["CONFIG"]["prefix"] = f"kill-{uuid.uuid4().hex[:8]}"
    settings.CHANNEL_LAYERS = {"default": layer}
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    channel_layers.backends.clear()
    settings_dict = connections["default"].settings_dict
    before = settings_dict["CONN_MAX_AGE"], settings_dict["CONN_HEALTH_CHECKS"]
    yield settings_dict
    settings_dict["CONN_MAX_AGE"], settings_dict["CONN_HEALTH_CHECKS"] = before
    channel_layers.backends.clear()


def _table() -> tuple[int, list[str]]:
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"killed{i}", password=make_password(None)) for i in range(SEATS)
    )
    # A grace longer than the test: the bot runner never plays for a player, so every step of
    # the game is one the table sent.
    game = start_game(*users, end_score=100, disconnect_grace=3600)
    return game.pk, [session_cookie(u) for u in users]


def _stored(game_id: int) -> tuple[Game, dict[int, tuple[int, dict]], dict]:
    """The game, its stored moves by version and its record (assembled from rows), through
    database_sync_to_async, which closes its connection: the async ORM would leave one open
    past the test."""
    moves = Move.objects.filter(game_id=game_id).values_list("version", "seat", "action")
    game = Game.objects.get(pk=game_id)
    return game, {v: (seat, action) for v, seat, action in moves}, game_record(game)


def _servers(count: int, settings_dict: dict) -> list:
    settings_dict["CONN_MAX_AGE"], settings_dict["CONN_HEALTH_CHECKS"] = 60, True
    try:
        return [start_daphne() for _ in range(count)]
    finally:
        settings_dict["CONN_MAX_AGE"], settings_dict["CONN_HEALTH_CHECKS"] = 0, False
        connections.close_all()


def _kill(process) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.join(timeout=10)


async def test_killed_process_loses_no_acknowledged_move(production_layer):
    game_id, cookies = await db(_table)()
    # Forked before any socket opens (a child would hold copies of them): the two serving
    # processes and the one that replaces the first after it is killed.
    first, second, replacement = await asyncio.to_thread(_servers, 3, production_layer)
    servers = [first.port.value, second.port.value]
    players = [
        FailoverPlayer(f"seat {i}", cookie, game_id, servers, first=i % 2)
        for i, cookie in enumerate(cookies)
    ]
    killed = []

    async def kill_when_due(step: int, player: FailoverPlayer) -> None:
        if len(killed) < len(KILLS_AT) and step >= KILLS_AT[len(killed)]:
            victim = (first, second)[len(killed)]
            if player.port == victim.port.value:  # a step on its way to the victim
                await asyncio.to_thread(_kill, victim)
                killed.append(victim.port.value)
                if len(killed) == 1:
                    servers[0] = replacement.port.value

    table = Table(players, after_send=kill_when_due)
    try:
        await table.open()
        final = await table.play()
    finally:
        await table.close()
        for process in (first, second, replacement):
            await asyncio.to_thread(stop, process)

    game, stored, record = await db(_stored)(game_id)
    acknowledged = {step.version: (step.seat, step.action) for step in table.moves}
    lost_on_the_way = [step for step in table.moves if step.lost]
    outages = table.outages
    print(
        f"\n{len(table.moves)} moves and {len(table.readies)} readies acknowledged, "
        f"{len(lost_on_the_way)} settled after a reconnect, {table.resent} sent again; "
        f"{len(outages)} reconnects, the longest {max(o.seconds for o in outages):.2f} s"
    )
    assert len(killed) == 2
    assert {o.player for o in outages} == {p.name for p in players}  # all moved at least once
    assert [v for v in acknowledged if stored.get(v) != acknowledged[v]] == []
    assert sorted(stored) == sorted(acknowledged)  # nothing stored that nobody saw applied
    assert game.status == Game.Status.FINISHED
    assert final["phase"] == "game_over"
    replayed = engine.view_of(engine.from_record(record), None).to_json()
    assert {**replayed, "version": game.version} == {**final, "drawn": None}
