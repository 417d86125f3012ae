"""Who the table waits for: a socket that asks for presence frames (``presence=1``) hears when
another player's last socket closes or their first opens, at once and without a new version
(web.sockets.presence_frames, docs/protocol.md "Bots and presence")."""

import asyncio
import json
import threading
import time

import pytest
from channels.layers import get_channel_layer

from games import selectors, services
from games.models import Game
from games.tests.helpers import start_game
from games.tests.ws import connect, db, receive_json
from web.sockets import presence_frames

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def open_socket(user, game_id: int, *, fmt="json", presence=True):
    """A game socket and its first frame (the state)."""
    query = [f"format={fmt}"] if fmt == "json" else []
    if presence:
        query.append("presence=1")
    comm = await connect(user, f"/ws/games/{game_id}/?{'&'.join(query)}")
    first = await comm.receive_from(timeout=5)
    return comm, first


async def frames_within(comm, seconds: float) -> list[dict]:
    frames = []
    while not await comm.receive_nothing(timeout=seconds):
        frames.append(await receive_json(comm))
    return frames


async def version_of(game_id: int) -> int:
    return (await db(Game.objects.get)(pk=game_id)).version


async def test_a_player_hears_who_is_not_connected_and_when_they_are_back(alice, bob):
    game = await db(start_game)(alice, bob)
    before = time.time()
    alices, first = await open_socket(alice, game.pk)
    assert json.loads(first)["version"] == 0
    frame = await receive_json(alices)
    [waiting] = frame["presence"]["offline"]
    assert (waiting["seat"], waiting["name"]) == (1, "bob")
    # The lobby's grace (60 s by default) from the game's start: then the bot plays for bob.
    assert before + 50 < waiting["bot_at"] / 1000 < time.time() + 61

    bobs, _ = await open_socket(bob, game.pk, presence=False)
    assert await receive_json(alices) == {"presence": {"offline": []}}
    await bobs.disconnect()
    frame = await receive_json(alices)
    assert [w["seat"] for w in frame["presence"]["offline"]] == [1]
    assert await version_of(game.pk) == 0  # presence is not a change of the game
    await alices.disconnect()


async def test_a_socket_that_does_not_ask_gets_no_presence_frame(alice, bob):
    game = await db(start_game)(alice, bob)
    alices, _ = await open_socket(alice, game.pk, presence=False)
    bobs, _ = await open_socket(bob, game.pk, presence=False)
    await bobs.disconnect()
    assert await alices.receive_nothing(timeout=0.5)
    await alices.disconnect()


async def test_a_second_tab_changes_nothing_for_the_others(alice, bob):
    """Bob's second socket opening or closing leaves him connected: no frame for alice."""
    game = await db(start_game)(alice, bob)
    bobs, _ = await open_socket(bob, game.pk, presence=False)
    alices, _ = await open_socket(alice, game.pk)
    assert await alices.receive_nothing(timeout=0.3)  # nobody was offline: nothing to say
    second, _ = await open_socket(bob, game.pk, presence=False)
    await second.disconnect()
    assert await alices.receive_nothing(timeout=0.5)
    await bobs.disconnect()
    assert (await receive_json(alices))["presence"]["offline"][0]["seat"] == 1
    await alices.disconnect()


async def test_the_html_page_gets_the_line_to_swap_in(alice, bob):
    game = await db(start_game)(alice, bob)
    alices, _ = await open_socket(alice, game.pk, fmt="html")
    line = await alices.receive_from(timeout=5)
    assert line.startswith('<div id="presence"')
    assert "<strong>bob</strong> is not connected. The medium bot plays for them in" in line
    assert 'data-deadline="' in line
    bobs, _ = await open_socket(bob, game.pk, presence=False)
    emptied = await alices.receive_from(timeout=5)
    assert emptied.startswith('<div id="presence"') and "bob" not in emptied
    await bobs.disconnect()
    await alices.disconnect()


async def test_bots_and_seats_already_played_by_the_bot_are_not_waited_for(alice, bob, charlie):
    """A bot is never offline; a player away (grace over) is marked on the board instead."""
    lobby = await db(services.lobby_create)(
        host=alice, name="Table", seat_count=3, disconnect_grace=0
    )
    await db(services.lobby_join)(lobby_id=lobby.pk, user=bob)
    await db(services.lobby_add_bot)(lobby_id=lobby.pk, host=alice, seat_index=2, level="easy")
    game = await db(services.lobby_start)(lobby_id=lobby.pk, user=alice)
    alices, _ = await open_socket(alice, game.pk)
    bobs, _ = await open_socket(bob, game.pk, presence=False)
    await bobs.disconnect()  # bob is away at once (no grace): nobody to wait for
    # (Bob's socket opening brought him back from away: a new state, not a presence frame.)
    assert [f for f in await frames_within(alices, 0.5) if "presence" in f] == []
    await alices.disconnect()


async def test_a_spectator_sees_every_player_who_is_not_connected(alice, bob, charlie):
    game = await db(start_game)(alice, bob)
    watcher, _ = await open_socket(charlie, game.pk)
    frame = await receive_json(watcher)
    assert [w["name"] for w in frame["presence"]["offline"]] == ["alice", "bob"]
    await watcher.disconnect()


async def test_a_slow_presence_read_holds_up_no_move(alice, bob, monkeypatch):
    """The read after a hint waits for the database like any call: the socket relays the moves
    meanwhile, and sends the presence frame when the read is done."""
    game = await db(start_game)(alice, bob)
    alices, _ = await open_socket(alice, game.pk)
    await receive_json(alices)  # bob is not connected
    release = threading.Event()
    read = selectors.game_offline_by_id

    def slow_read(game_id):
        release.wait(10)
        return read(game_id)

    monkeypatch.setattr(selectors, "game_offline_by_id", slow_read)
    bobs, _ = await open_socket(bob, game.pk, presence=False)  # the hint: a read that waits
    await asyncio.sleep(0.2)
    await db(services.game_apply_action)(game_id=game.pk, user=bob, action={"reveal": 0}, version=0)
    assert (await receive_json(alices))["version"] == 1  # while the read still waits
    release.set()
    assert await receive_json(alices) == {"presence": {"offline": []}}
    await bobs.disconnect()
    await alices.disconnect()


@pytest.fixture
def drop_presence_hints(monkeypatch):
    """The channel layer loses every presence hint (as channels_redis may over capacity)."""
    layer = get_channel_layer()
    original = layer.group_send
    dropped = []

    async def group_send(group, message):
        if message.get("type") == "game.presence":
            dropped.append(group)
            return
        await original(group, message)

    monkeypatch.setattr(layer, "group_send", group_send)
    return dropped


async def test_a_lost_hint_is_made_good_by_the_heartbeat(alice, bob, settings, drop_presence_hints):
    settings.SKYJO_HEARTBEAT = 1
    game = await db(start_game)(alice, bob)
    alices, _ = await open_socket(alice, game.pk)
    assert [w["seat"] for w in (await receive_json(alices))["presence"]["offline"]] == [1]
    bobs, _ = await open_socket(bob, game.pk, presence=False)
    assert drop_presence_hints  # bob's socket opened, and nobody heard of it
    assert await receive_json(alices, timeout=5) == {"presence": {"offline": []}}
    await bobs.disconnect()
    await alices.disconnect()


async def test_heartbeats_of_one_game_share_a_young_read(alice, bob, monkeypatch):
    """Every socket of a game looks every SKYJO_HEARTBEAT seconds: one read serves them all."""
    game = await db(start_game)(alice, bob)
    reads = []
    read = selectors.game_offline_by_id

    def counted(game_id):
        reads.append(game_id)
        return read(game_id)

    monkeypatch.setattr(selectors, "game_offline_by_id", counted)
    first = await presence_frames.recent(game.pk, 60)
    assert await presence_frames.recent(game.pk, 60) == first
    assert [s.seat for s in first] == [0, 1] and len(reads) == 1
    await db(services.game_player_seen)(game_id=game.pk, user=bob, change=+1)
    assert [s.seat for s in await presence_frames.recent(game.pk, 0)] == [0]  # too old: read
    assert len(reads) == 2
