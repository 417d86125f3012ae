"""Stop the server in the middle of games and start a new one: every game resumes exactly."""

import asyncio

import pytest
from channels.db import database_sync_to_async as db

from games import engine
from games.models import Game
from games.tests.helpers import start_game
from games.tests.live import Player, daphne, session_cookie

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _hosts(settings):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]


async def test_games_resume_exactly_after_a_restart(alice, bob, charlie):
    drawing = await db(start_game)(alice, bob)  # will be stopped holding a drawn card
    revealing = await db(start_game)(bob, charlie)  # will be stopped in the reveal phase
    cookies = {u.username: await db(session_cookie)(u) for u in (alice, bob, charlie)}

    async with daphne() as port:
        a = Player(cookies["alice"], port, drawing.pk)
        b = Player(cookies["bob"], port, drawing.pk)
        await a.open()
        await b.open()
        version = 0
        for player in (a, b):
            for pos in (0, 11):
                await player.send({"reveal": pos, "version": version})
                version += 1
                await asyncio.gather(a.until_version(version), b.until_version(version))
        drawer = (a, b)[a.state["current"]]
        await drawer.send({"take": "deck", "version": version})
        before = {p: await p.until_version(version + 1) for p in (a, b)}
        assert before[drawer]["drawn"] is not None

        c = Player(cookies["charlie"], port, revealing.pk)
        await c.open()
        await c.send({"reveal": 4, "version": 0})
        before_c = await c.until_version(1)
    # The server is gone: its sockets are closed.

    async with daphne() as port:
        for player in (a, b, c):
            player.port = port
            player.state = None
        after = {p: await p.open() for p in (a, b)}
        assert after == before
        assert await c.open() == before_c
        snapshot = (await Game.objects.aget(pk=drawing.pk)).snapshot
        assert after[drawer] == {
            **engine.view_of(engine.from_snapshot(snapshot), (a, b).index(drawer)).to_json(),
            "version": version + 1,
        }
        await drawer.send({"swap": 3, "version": version + 1})
        states = await asyncio.gather(a.until_version(version + 2), b.until_version(version + 2))
        grid = states[0]["players"][(a, b).index(drawer)]["grid"]
        assert grid[3] == before[drawer]["drawn"]
        await c.send({"reveal": 5, "version": 1})
        assert (await c.until_version(2))["players"][1]["grid"][5] != "?"
        for player in (a, b, c):
            await player.close()
