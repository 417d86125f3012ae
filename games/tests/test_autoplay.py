"""The bot runner (games.autoplay): bots play whole games, away players are stood in for,
due turns resume after a restart, and two racing runners never play one turn twice."""

import asyncio
import random
import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from games import autoplay, engine, presence, services
from games.models import Game, GamePlayer, Move
from games.records import game_record
from games.tests.helpers import play_one, start_game
from games.tests.live import daphne
from games.tests.ws import db, game_socket, receive_json, send

ASYNC_DB = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _no_delay(settings):
    settings.SKYJO_BOT_DELAY = 0
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]


def state_of(game_id: int) -> tuple[Game, engine.Game]:
    game = Game.objects.get(pk=game_id)
    return game, engine.from_record(game_record(game))


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_human_plays_a_whole_game_against_three_bots_over_a_websocket(alice):
    game = await db(services.bot_game_create)(user=alice, bots=3, level="medium", end_score=20)
    comm, frame = await game_socket(alice, game.pk)
    rng = random.Random(3)
    version, mine, moves_by_bots = frame["version"], 0, 0
    for _ in range(5000):
        row, state = await db(state_of)(game.pk)
        if row.status != Game.Status.PLAYING:
            break
        if state.phase == engine.ROUND_OVER and 0 not in row.ready:
            await send(comm, {"ready": True})
        elif 0 in state.to_act():
            action = rng.choice(state.legal_actions(0)).to_json()
            await send(comm, {**action, "version": row.version})
            mine += 1
        else:
            played = await db(autoplay.play_due_turns)()
            assert played == 1, (state.phase, state.to_act(), row.bot_due_at)
            moves_by_bots += 1
        while version < row.version + 1:  # every step above changes the game once
            frame = await receive_json(comm)
            assert "error" not in frame, frame
            version = frame["version"]
            if frame["drawn"] is not None:  # only ever my own drawn card
                assert frame["current"] == 0
    else:
        raise AssertionError("the game did not end")
    row, state = await db(state_of)(game.pk)
    assert row.status == Game.Status.FINISHED and state.finished and row.bot_due_at is None
    assert mine > 10 and moves_by_bots > 3 * mine // 2
    assert await db(autoplay.play_due_turns)() == 0
    await comm.disconnect()


def _game_with_bot(alice, grace=60):
    lobby = services.lobby_create(host=alice, name="t", seat_count=2, disconnect_grace=grace)
    services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=1, level="easy")
    game = services.lobby_start(lobby_id=lobby.pk, user=alice)
    while autoplay.play_due_turns():  # the bot reveals its two cards
        pass
    return game


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_away_player_is_played_by_the_medium_bot_until_they_come_back(alice):
    game = await db(_game_with_bot)(alice, grace=60)
    comm, frame = await game_socket(alice, game.pk)
    await comm.disconnect()  # alice leaves during her reveals
    player = await GamePlayer.objects.aget(game=game, seat=0)
    assert player.connections == 0 and player.last_seen is not None
    soon = player.last_seen + timedelta(seconds=30)
    assert await db(autoplay.play_due_turns)(now=soon) == 0
    later = player.last_seen + timedelta(seconds=61)
    assert await db(autoplay.play_due_turns)(now=later) == 1  # her first reveal, by the bot
    row, state = await db(state_of)(game.pk)
    assert len(state.log.reveals[0]) == 1
    assert await db(presence.game_away_seats)(row, now=later) == [0]
    # She comes back: the bot stops at once, and her seat waits for her again.
    comm, frame = await game_socket(alice, game.pk)
    back = timezone.now() + timedelta(seconds=1)
    await db(Game.objects.filter(pk=game.pk).update)(bot_due_at=back)  # due: look at it now
    assert await db(autoplay.play_due_turns)(now=back) == 0
    row, state = await db(state_of)(game.pk)
    assert len(state.log.reveals[0]) == 1
    assert row.bot_due_at > timezone.now() + timedelta(seconds=30)  # her next grace check
    await send(comm, {"reveal": 11, "version": row.version})
    await receive_json(comm)
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_player_who_reconnects_after_being_away_is_shown_back_at_once(alice, bob):
    game = await db(_game_with_bot)(alice, grace=5)
    await GamePlayer.objects.filter(game=game, seat=0).aupdate(
        connections=0, last_seen=timezone.now() - timedelta(seconds=60)
    )
    watcher, frame = await game_socket(bob, game.pk, fmt="html")
    assert "away — played by bot" in frame
    version = (await Game.objects.aget(pk=game.pk)).version
    comm, first = await game_socket(alice, game.pk)
    assert first["version"] == version + 1  # her first frame is already the one without the mark
    pushed = await watcher.receive_from(timeout=5)
    assert f'data-version="{version + 1}"' in pushed and "away — played by bot" not in pushed
    player = await GamePlayer.objects.aget(game=game, seat=0)
    assert player.connections == 1 and player.timeouts == 0
    await comm.disconnect()
    await watcher.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_player_away_after_timeouts_is_not_back_by_connecting_alone(alice, bob):
    game = await db(_game_with_bot)(alice, grace=5)
    await GamePlayer.objects.filter(game=game, seat=0).aupdate(timeouts=2)
    version = (await Game.objects.aget(pk=game.pk)).version
    comm, first = await game_socket(alice, game.pk)
    assert first["version"] == version  # nothing announced: only a frame of hers ends it
    assert await comm.receive_nothing(timeout=0.3)
    row = await Game.objects.aget(pk=game.pk)
    assert await db(presence.game_away_seats)(row) == [0]
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
def test_the_board_marks_an_away_seat(alice, client):
    game = _game_with_bot(alice, grace=5)
    GamePlayer.objects.filter(game=game, seat=0).update(
        last_seen=timezone.now() - timedelta(seconds=6)
    )
    assert autoplay.play_due_turns(now=timezone.now() + timedelta(seconds=60)) == 1
    client.force_login(alice)
    assert "away — played by bot" in client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_fresh_runner_plays_the_turns_that_were_due(alice):
    """A restart loses nothing: the queue is the database, so a new runner picks up due games."""
    game = services.bot_game_create(user=alice, bots=2, level="easy")
    Game.objects.filter(pk=game.pk).update(bot_due_at=timezone.now() - timedelta(minutes=5))
    assert autoplay.play_due_turns() == 1
    assert Move.objects.filter(game=game).exclude(seat=0).count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_restarted_server_resumes_due_bot_turns_by_itself(alice):
    """A real Daphne with no client connected plays the bots' reveals after it starts."""
    game = await db(services.bot_game_create)(user=alice, bots=3, level="easy")
    async with daphne():
        for _ in range(100):
            row, state = await db(state_of)(game.pk)
            if all(len(state.log.reveals[s]) == 2 for s in (1, 2, 3)):
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the server did not play the due bot turns")
    assert len(state.log.reveals[0]) == 0  # alice's turns wait for her (grace 60 s)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks need PostgreSQL: scripts/test runs this on PostgreSQL (DATABASE_URL)",
)
@pytest.mark.parametrize("phase", ["reveal", "play"])
def test_two_racing_runners_never_play_two_moves_for_one_turn(alice, settings, phase):
    # The step after the raced one falls due long after the race, so a runner that starts after
    # the winner's commit rightly finds nothing to play.
    settings.SKYJO_BOT_DELAY = 600
    lobby = services.lobby_create(host=alice, name="race", seat_count=2)
    services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=1, level="medium")
    game = services.lobby_start(lobby_id=lobby.pk, user=alice)
    if phase == "play":
        for pos in (0, 1):
            services.game_apply_action(
                game_id=game.pk, user=alice, action={"reveal": pos}, version=0
            )
        for _ in range(2):
            autoplay.play_due_turns(now=timezone.now() + timedelta(hours=1))
        row, state = state_of(game.pk)
        if state.current == 0:
            services.game_apply_action(
                game_id=game.pk,
                user=alice,
                action={"take": "discard", "swap": 5},
                version=row.version,
            )
    before = Move.objects.filter(game=game).count()
    Game.objects.filter(pk=game.pk).update(bot_due_at=timezone.now() - timedelta(seconds=1))
    now = timezone.now()
    barrier = threading.Barrier(4)
    played = []

    def runner():
        try:
            barrier.wait(timeout=10)
            played.append(autoplay.play_due_turns(now=now))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=runner) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(played) == [0, 0, 0, 1]
    assert Move.objects.filter(game=game).count() == before + 1


def _round_over_waiting_for_charlie_whose_account_is_then_deleted(alice, bob, charlie) -> Game:
    """A game at the end of round 1, Alice and Bob ready; Charlie's account is deleted, so his
    seat is played by the medium bot (presence.is_bot) and nobody is left to wait for."""
    game = start_game(alice, bob, charlie, end_score=1000)
    rng = random.Random(3)
    while game.phase != engine.ROUND_OVER:
        play_one(game, [alice, bob, charlie], rng)
        game.refresh_from_db()
    services.game_set_ready(game_id=game.pk, user=alice)
    services.game_set_ready(game_id=game.pk, user=bob)
    charlie.delete()
    game.refresh_from_db()
    assert game.phase == engine.ROUND_OVER and game.snapshot["round"] == 1
    return game


@pytest.mark.django_db
def test_the_runner_deals_when_the_last_player_not_ready_lost_their_account(alice, bob, charlie):
    game = _round_over_waiting_for_charlie_whose_account_is_then_deleted(alice, bob, charlie)
    later = timezone.now()
    for _ in range(3):  # the runner looks whenever the game is due
        later += timedelta(hours=1)
        autoplay.play_due_turns(now=later)
    game.refresh_from_db()
    assert game.phase == engine.REVEAL_PHASE and game.snapshot["round"] == 2
    assert game.ready == [] and game.bot_due_at is not None


@pytest.mark.django_db
def test_ready_again_deals_when_nobody_is_left_to_wait_for(alice, bob, charlie):
    game = _round_over_waiting_for_charlie_whose_account_is_then_deleted(alice, bob, charlie)
    services.game_set_ready(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.phase == engine.REVEAL_PHASE and game.snapshot["round"] == 2
