"""Two real Daphne processes on one Redis: players on different processes see each other's moves."""

import asyncio
import time

import pytest
from channels.db import database_sync_to_async as db

from games.tests.helpers import start_game
from games.tests.live import Player, daphne, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_moves_cross_processes_through_redis(alice, bob, redis_everywhere):
    game = await db(start_game)(alice, bob)
    cookies = [await db(session_cookie)(u) for u in (alice, bob)]
    async with daphne() as port_a, daphne() as port_b:
        assert port_a != port_b
        a = Player(cookies[0], port_a, game.pk)
        b = Player(cookies[1], port_b, game.pk)
        await a.open()
        await b.open()
        version = 0
        for player, pos in ((a, 0), (b, 5), (a, 1), (b, 6)):
            started = time.monotonic()
            await player.send({"reveal": pos, "version": version})
            version += 1
            states = await asyncio.gather(a.until_version(version), b.until_version(version))
            assert states[0]["players"] == states[1]["players"]
            assert time.monotonic() - started < 2
        assert states[0]["phase"] == "play"
        assert [p["grid"][5] != "?" for p in states[0]["players"]] == [False, True]
        current = states[0]["current"]
        drawer, other = (a, b) if current == 0 else (b, a)
        await drawer.send({"take": "deck", "version": version})
        mine, theirs = await asyncio.gather(drawer.until_version(5), other.until_version(5))
        assert mine["drawn"] is not None and theirs["drawn"] is None
        await a.close()
        await b.close()


async def test_a_player_on_one_process_hears_of_one_on_another_leaving_and_coming_back(
    alice, bob, redis_everywhere
):
    game = await db(start_game)(alice, bob)
    cookies = [await db(session_cookie)(u) for u in (alice, bob)]
    async with daphne() as port_a, daphne() as port_b:
        a = Player(cookies[0], port_a, game.pk, presence=True)
        await a.open()
        assert [s["seat"] for s in (await a.receive())["presence"]["offline"]] == [1]
        b = Player(cookies[1], port_b, game.pk)
        await b.open()
        assert await a.receive() == {"presence": {"offline": []}}
        await b.close()
        assert [s["name"] for s in (await a.receive())["presence"]["offline"]] == ["bob"]
        await a.close()
