"""A group message that only forwards a frame, and a frame refused before any query, run on
the event loop alone: no hop to a thread (web.sockets.base.Socket.dispatch). Hops are counted
at the event loop's ``run_in_executor``, through which every ``sync_to_async`` call goes."""

import asyncio
import json

import pytest
from channels.layers import get_channel_layer

from games import publish, services
from games.tests.helpers import restore, reveal_all, start_game
from games.tests.ws import db, game_socket, receive_json

pytestmark = pytest.mark.django_db(transaction=True)


def count_hops(monkeypatch) -> list:
    """Every call the running event loop hands to a thread from now on."""
    loop = asyncio.get_running_loop()
    hops = []
    original = loop.run_in_executor

    def counting(executor, func, *args):
        hops.append(func)
        return original(executor, func, *args)

    monkeypatch.setattr(loop, "run_in_executor", counting)
    return hops


async def saved_not_told(monkeypatch, **move) -> tuple[str, dict]:
    """Apply ``move`` through the service and keep its group message instead of sending it."""
    kept = []
    monkeypatch.setattr(publish, "_send", lambda group, message: kept.append((group, message)))
    await db(services.game_apply_action)(**move)
    monkeypatch.undo()
    ((group, message),) = kept
    return group, message


@pytest.mark.parametrize("fmt", ["json", "html"])
async def test_a_group_message_reaches_the_socket_with_no_thread_hop(alice, bob, monkeypatch, fmt):
    game = await db(start_game)(alice, bob)
    comm, _ = await game_socket(alice, game.pk, fmt)
    move = {"game_id": game.pk, "user": bob, "action": {"reveal": 5}, "version": 0}
    group, message = await saved_not_told(monkeypatch, **move)
    hops = count_hops(monkeypatch)
    await get_channel_layer().group_send(group, message)
    frame = await comm.receive_from(timeout=5)
    if fmt == "json":
        assert json.loads(frame)["version"] == 1
    else:
        assert 'data-version="1"' in frame
    assert hops == []
    await comm.disconnect()


async def test_frames_refused_before_any_query_make_no_thread_hop(alice, bob, monkeypatch):
    game = await db(start_game)(alice, bob)
    await db(reveal_all)(game, [alice, bob])
    player = [alice, bob][(await db(restore)(game)).current]
    comm, first = await game_socket(player, game.pk, "json")
    await comm.send_to(text_data=json.dumps({"take": "deck", "version": first["version"]}))
    played = await receive_json(comm)  # a move: held in this process from here on
    assert played["version"] == first["version"] + 1
    hops = count_hops(monkeypatch)
    refused = {
        "bad_json": "{not json",
        "malformed_action": json.dumps({"dance": 1, "version": 1}),
        "stale_version": json.dumps({"flip": 0, "version": first["version"]}),
    }
    for code, text in refused.items():
        await comm.send_to(text_data=text)
        assert (await receive_json(comm))["error"]["code"] == code
    assert hops == []
    await comm.disconnect()


async def test_a_move_frame_makes_one_thread_hop(alice, bob, monkeypatch):
    """The counter sees hops: a move is the one call to the database thread."""
    game = await db(start_game)(alice, bob)
    comm, first = await game_socket(alice, game.pk, "json")
    hops = count_hops(monkeypatch)
    await comm.send_to(text_data=json.dumps({"reveal": 0, "version": first["version"]}))
    assert (await receive_json(comm))["version"] == first["version"] + 1
    assert len(hops) == 1
    await comm.disconnect()
