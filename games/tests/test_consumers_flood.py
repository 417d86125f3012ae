"""A game socket that sends too fast: refused frames, then closed (docs/protocol.md)."""

import asyncio
import json

import pytest

from core.close_codes import RATE_LIMITED
from games.models import Game, Move
from games.tests.helpers import start_game
from games.tests.ws import db, game_socket, receive_json, send
from web.sockets.frames import MAX_FRAME

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def slow_socket(settings):
    """Three frames, then practically nothing; closed after five refused frames."""
    settings.SKYJO_WS_RATE = 0.001
    settings.SKYJO_WS_BURST = 3
    settings.SKYJO_WS_MAX_DROPPED = 5


async def test_a_flood_is_refused_applied_once_and_then_closed(slow_socket, alice, bob):
    game = await db(start_game)(alice, bob)
    comm, _ = await game_socket(alice, game.pk)
    for _ in range(8):  # as fast as it goes: 3 within the burst, 5 refused
        await send(comm, {"reveal": 3, "version": 0})
    frames = [await receive_json(comm) for _ in range(8)]
    codes = [frame["error"]["code"] for frame in frames if "error" in frame]
    states = [frame for frame in frames if "error" not in frame]
    assert codes.count("rate_limited") == 5
    assert codes.count("card_face_up") == 2  # the 2nd and 3rd copies reached the rules
    assert [state["version"] for state in states] == [1]
    limited = next(f for f in frames if "error" in f and f["error"]["code"] == "rate_limited")
    assert limited["error"]["message"].startswith("Too many messages")
    assert await Move.objects.filter(game=game).acount() == 1
    assert (await Game.objects.aget(pk=game.pk)).version == 1

    await send(comm, {"sync": True})  # the sixth refused frame: the socket is closed
    closed = await comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": RATE_LIMITED}
    assert await Move.objects.filter(game=game).acount() == 1
    await comm.disconnect()


async def test_a_refused_frame_in_html_mode_is_a_flash(slow_socket, alice, bob):
    game = await db(start_game)(alice, bob)
    comm, _ = await game_socket(alice, game.pk, fmt="html")
    for _ in range(4):
        await comm.send_to(text_data=json.dumps({"sync": "true"}))
    frames = [await comm.receive_from(timeout=5) for _ in range(4)]
    assert sum('id="flash"' in f and "Too many messages" in f for f in frames) == 1
    await comm.disconnect()


async def test_the_bucket_refills(settings, alice, bob):
    settings.SKYJO_WS_RATE = 20
    settings.SKYJO_WS_BURST = 1
    game = await db(start_game)(alice, bob)
    comm, _ = await game_socket(alice, game.pk)
    for _ in range(3):
        await send(comm, {"sync": True})
        assert "error" not in await receive_json(comm)
        await asyncio.sleep(0.06)
    await comm.disconnect()


async def test_the_frame_size_limit_still_holds(alice, bob):
    game = await db(start_game)(alice, bob)
    comm, _ = await game_socket(alice, game.pk)
    await comm.send_to(text_data=json.dumps({"sync": True, "pad": "x" * MAX_FRAME}))
    assert (await receive_json(comm))["error"]["code"] == "frame_too_large"
    await comm.disconnect()


async def test_no_limit_when_rate_limits_are_off(settings, slow_socket, alice, bob):
    settings.RATELIMIT_ENABLE = False
    game = await db(start_game)(alice, bob)
    comm, _ = await game_socket(alice, game.pk)
    for _ in range(10):
        await send(comm, {"sync": True})
    frames = [await receive_json(comm) for _ in range(10)]
    assert all("error" not in frame for frame in frames)
    await comm.disconnect()


async def test_a_lobby_socket_that_floods_is_closed_as_a_game_socket_is(slow_socket, alice):
    """A lobby page's socket answered every frame over its rate with a rendered error, for as
    long as the client kept sending: a flood of tiny frames was a flood of renders."""
    from games import services
    from games.tests.ws import connect

    lobby = await db(services.lobby_create)(host=alice, name="Flood", seat_count=2)
    comm = await connect(alice, f"/ws/lobbies/{lobby.pk}/")
    await comm.receive_from(timeout=5)  # the seats
    for _ in range(8):  # 3 within the burst (each a message posted or refused), 5 refused
        await comm.send_to(text_data=json.dumps({"chat": "hi"}))
    answers = [await comm.receive_from(timeout=5) for _ in range(8)]
    assert sum("Too many messages at once" in a for a in answers) == 5
    await comm.send_to(text_data=json.dumps({"chat": "hi"}))  # the sixth refused frame
    closed = await comm.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": RATE_LIMITED}
    await comm.disconnect()
