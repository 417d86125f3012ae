"""A burst on a real Daphne on Redis: 200 JSON game sockets open, 50 games move at once.

With redis-py's default pool (100 connections) this burst crashed consumers with
``MaxConnectionsError`` and closed their sockets; the site's layer settings
(skyjo_site.layers.redis_channel_layer, the same as in production) must carry it. The server
runs as docs/deployment.md advises (persistent database connections, a 30 s handshake limit)
and the sockets arrive in waves, as browsers do: on a busy machine Daphne's default 5 s
closed handshakes. Nothing may be lost: every socket gets every move pushed, no resync.
"""

import asyncio
import contextlib
import uuid
from contextlib import asynccontextmanager

import pytest
from channels.db import database_sync_to_async as db
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import connections

from games.tests.helpers import start_game
from games.tests.live import DEPLOYED_TIMEOUTS, Player, daphne, session_cookie
from skyjo_site.layers import redis_channel_layer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

GAMES = 50
SEATS = 4
WAVE = 50  # handshakes in flight at once
PUSH_TIMEOUT = 60  # seconds a push may take on a loaded machine before it counts as lost


@pytest.fixture
def site_redis_layer(settings, redis_url):
    """The production layer settings on ``redis_url``, in this process and the forked server.

    A prefix of its own keeps this test apart from any other run sharing the Redis."""
    from channels.layers import channel_layers

    layer = redis_channel_layer(redis_url)
    layer["CONFIG"]["prefix"] = f"burst-{uuid.uuid4().hex[:8]}"
    settings.CHANNEL_LAYERS = {"default": layer}
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    channel_layers.backends.clear()
    yield layer
    channel_layers.backends.clear()


@asynccontextmanager
async def server_with_persistent_connections():
    """A live Daphne set up as docs/deployment.md advises: persistent database connections (a
    new PostgreSQL connection per call makes every handshake slow) and a 30 s handshake limit.
    Only the forked server gets the persistent connections (this process must not keep the
    test database open)."""
    settings_dict = connections["default"].settings_dict
    before = settings_dict["CONN_MAX_AGE"]
    settings_dict["CONN_MAX_AGE"] = 60
    try:
        server = daphne(**DEPLOYED_TIMEOUTS)
        port = await server.__aenter__()
    finally:
        settings_dict["CONN_MAX_AGE"] = before
    try:
        yield port
    finally:
        await server.__aexit__(None, None, None)


def _make_games() -> list[tuple[int, list[str]]]:
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"burst{i}", password=make_password(None))
        for i in range(GAMES * SEATS)
    )
    games = []
    for g in range(GAMES):
        seated = users[g * SEATS : (g + 1) * SEATS]
        # A long grace: however slowly the sockets open here, no seat counts as away (then the
        # bot runner would play it and the versions would move under the test).
        game = start_game(*seated, disconnect_grace=3600)
        games.append((game.pk, [session_cookie(u) for u in seated]))
    return games


async def _open_in_waves(players: list[Player]) -> list[dict]:
    gate = asyncio.Semaphore(WAVE)

    async def one(player):
        async with gate:
            return await player.open()

    return await asyncio.gather(*(one(p) for p in players))


async def _pushed(players: list[Player], version: int) -> list[Player]:
    """Wait for the push of ``version`` on every socket (no resync asked); returns the sockets
    that did not get exactly that version next, in time."""

    async def one(player):
        before = player.state["version"]
        with contextlib.suppress(TimeoutError):
            frame = await player.receive(timeout=PUSH_TIMEOUT)
            return before == version - 1 and frame.get("version") == version
        return False

    got = await asyncio.gather(*(one(p) for p in players))
    return [p for p, ok in zip(players, got, strict=True) if not ok]


async def test_a_burst_of_sockets_and_moves_loses_nothing(site_redis_layer, settings):
    # The 50 moves at once must be carried, not shed: test_overload covers shedding.
    settings.SKYJO_MAX_PENDING_FRAMES = GAMES
    settings.SKYJO_SHED_AFTER = PUSH_TIMEOUT  # a loaded machine's queue is no overload here
    games = await db(_make_games)()
    async with server_with_persistent_connections() as port:
        tables = [
            [Player(cookie, port, game_id) for cookie in cookies] for game_id, cookies in games
        ]
        players = [p for table in tables for p in table]

        firsts = await _open_in_waves(players)
        assert [f["version"] for f in firsts] == [0] * len(players)

        # Every game's first move at the same moment: every socket gets it pushed.
        await asyncio.gather(*(table[0].send({"reveal": 0, "version": 0}) for table in tables))
        missed = await _pushed(players, 1)
        assert missed == [], f"{len(missed)} of {len(players)} sockets missed the push"
        assert all(p.ws.close_code is None for p in players), "the server closed sockets"
        assert all(p.state["players"][0]["grid"][0] != "?" for p in players)

        # Everybody leaves at once, then the server still serves a new socket and a move.
        await asyncio.gather(*(p.close() for p in players[SEATS:]))
        first_table = tables[0]
        newcomer = Player(games[0][1][1], port, games[0][0])
        assert (await newcomer.open())["version"] == 1
        await first_table[1].send({"reveal": 5, "version": 1})
        assert await _pushed([*first_table, newcomer], 2) == []
        assert all(p.state["players"][1]["grid"][5] != "?" for p in [*first_table, newcomer])
        await asyncio.gather(*(p.close() for p in [*first_table, newcomer]))
