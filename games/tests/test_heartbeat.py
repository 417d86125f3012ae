"""The heartbeat carries the game's saved version; a socket that missed a group message catches
up by itself, without a reload (issue 9, item 2)."""

import asyncio
import json
import re
import threading
import time

import pytest
from channels.layers import get_channel_layer

from games import selectors, services
from games.tests.helpers import start_game
from games.tests.ws import db, game_socket, receive_json

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def quick_heartbeat(settings):
    settings.SKYJO_WS_HEARTBEAT = 0.5


@pytest.fixture
def drop_next_game_update(monkeypatch):
    """The channel layer loses the next game.updated message (as channels_redis does over
    capacity, or a publish that fails): no socket hears of that move."""
    layer = get_channel_layer()
    original = layer.group_send
    dropped = []

    async def group_send(group, message):
        if message.get("type") == "game.updated" and not dropped:
            dropped.append(message["version"])
            return
        await original(group, message)

    monkeypatch.setattr(layer, "group_send", group_send)
    return dropped


async def test_a_quiet_socket_gets_heartbeats_with_the_version(alice, bob, quick_heartbeat):
    game = await db(start_game)(alice, bob)
    comm, first = await game_socket(bob, game.pk)
    assert first["version"] == 0
    assert await receive_json(comm) == {"heartbeat": {"version": 0}}
    html, _ = await game_socket(alice, game.pk, fmt="html")
    frame = await html.receive_from(timeout=5)
    assert re.fullmatch(
        r'<div id="heartbeat" hidden hx-swap-oob="true" data-version="0"></div>', frame
    )
    await comm.disconnect()
    await html.disconnect()


@pytest.mark.parametrize("fmt", ["json", "html"])
async def test_a_lost_group_message_is_recovered_by_the_heartbeat(
    alice, bob, charlie, quick_heartbeat, drop_next_game_update, fmt
):
    game = await db(start_game)(alice, bob)
    sockets = [(await game_socket(user, game.pk, fmt=fmt))[0] for user in (alice, charlie)]
    started = time.monotonic()
    await db(services.game_apply_action)(game_id=game.pk, user=bob, action={"reveal": 5}, version=0)
    assert drop_next_game_update == [1]  # nobody was told
    for comm in sockets:
        frame = await comm.receive_from(timeout=5)
        while "heartbeat" in frame and "board" not in frame:  # sent before the move was saved
            assert re.search(r'"version": 0|data-version="0"', frame), frame
            frame = await comm.receive_from(timeout=5)
        if fmt == "json":
            assert json.loads(frame)["version"] == 1 and '"players"' in frame, frame
        else:
            assert 'id="board"' in frame and 'data-version="1"' in frame, frame
    print(f"\n{fmt}: caught up {time.monotonic() - started:.2f} s after the lost message "
          f"(heartbeat every 0.5 s)")  # fmt: skip
    for comm in sockets:
        await comm.disconnect()


async def test_a_socket_that_is_up_to_date_gets_no_second_state(alice, bob, quick_heartbeat):
    game = await db(start_game)(alice, bob)
    comm, _ = await game_socket(alice, game.pk)
    await db(services.game_apply_action)(game_id=game.pk, user=bob, action={"reveal": 5}, version=0)
    assert (await receive_json(comm))["version"] == 1
    assert await receive_json(comm) == {"heartbeat": {"version": 1}}
    await comm.disconnect()


async def test_a_resync_read_before_a_newer_push_is_not_sent_after_it(
    alice, bob, charlie, quick_heartbeat, monkeypatch
):
    """The heartbeat's resync runs beside the pushes: a state it read (version 1) while
    version 2 was saved and pushed must not follow that push, or the board goes back in time.
    The layer holds the moves' messages and the read waits until both are out, so the order
    is exact; the moves are real service calls."""
    game = await db(start_game)(alice, bob)
    comm, first = await game_socket(charlie, game.pk)  # a spectator
    assert first["version"] == 0
    loop = asyncio.get_running_loop()
    layer = get_channel_layer()
    original = layer.group_send
    held = []

    async def hold_game_updates(group, message):
        if message.get("type") == "game.updated":
            held.append((group, message))
            return
        await original(group, message)

    async def release():
        while len(held) < 2:
            await asyncio.sleep(0.01)
        for group, message in held:
            await original(group, message)

    monkeypatch.setattr(layer, "group_send", hold_game_updates)
    real_read = selectors.game_state_by_id
    reads, read_done = [], threading.Event()

    def slow_read(*, game_id, seat):  # the heartbeat's: version 1, then version 2 is pushed
        state = real_read(game_id=game_id, seat=seat)
        if not reads:
            reads.append(state.meta["version"])
            services.game_apply_action(game_id=game_id, user=bob, action={"reveal": 1}, version=1)
            asyncio.run_coroutine_threadsafe(release(), loop).result(timeout=10)
            time.sleep(0.5)  # the pushes of versions 1 and 2 are sent meanwhile
            read_done.set()
        return state

    monkeypatch.setattr(selectors, "game_state_by_id", slow_read)
    await db(services.game_apply_action)(game_id=game.pk, user=bob, action={"reveal": 0}, version=0)
    versions, until = [], None
    while until is None or loop.time() < until:  # everything sent up to 1 s after the read
        if until is None and read_done.is_set():
            until = loop.time() + 1.0
        if await comm.receive_nothing(timeout=0.2):  # (a timed-out receive ends the app)
            continue
        frame = json.loads(await comm.receive_from())
        if "heartbeat" not in frame:
            versions.append(frame["version"])
    await comm.disconnect()
    assert reads == [1]
    assert versions == [1, 2]
