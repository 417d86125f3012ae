"""Real writers at once on one database: two threads play two games through the services
while the bot runner plays a third. On SQLite (the embedded default) every write must wait for
its turn (IMMEDIATE transactions, a busy timeout, WAL) instead of failing with "database is
locked"; on PostgreSQL the row locks do the same. Every acknowledged move must be stored."""

import logging
import random
import threading
import time

import pytest
from django.db import connections

from games import autoplay, engine, services
from games.models import Game, Move
from games.records import game_record
from games.tests.helpers import start_game

pytestmark = pytest.mark.django_db(transaction=True)

MOVES_PER_PLAYER_THREAD = 60


@pytest.fixture(autouse=True)
def _no_delay(settings):
    settings.SKYJO_BOT_DELAY = 0


def _play(game_id: int, users, rng: random.Random, acked: list, stop: threading.Event) -> None:
    """Make legal steps for whoever is to act until ``MOVES_PER_PLAYER_THREAD`` are acknowledged;
    ``acked`` gets the version of every acknowledged move."""
    while len(acked) < MOVES_PER_PLAYER_THREAD and not stop.is_set():
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.PLAYING:
            return
        state = engine.from_record(game_record(game))
        if state.phase == engine.ROUND_OVER:
            for user in users:
                services.game_set_ready(game_id=game_id, user=user)
            continue
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat)).to_json()
        result = services.game_apply_action(
            game_id=game_id, user=users[seat], action=action, version=game.version
        )
        acked.append(result.version)


def _run_bots(played: list, stop: threading.Event) -> None:
    while not stop.is_set():
        played.append(autoplay.play_due_turns())


def _thread(target, errors: list, *args) -> threading.Thread:
    def run():
        try:
            target(*args)
        except Exception as exc:  # every failure is a finding: collect it for the assertion
            errors.append(exc)
        finally:
            connections.close_all()

    return threading.Thread(target=run)


def test_two_games_and_the_bot_runner_write_at_once_and_lose_nothing(alice, bob, charlie, caplog):
    caplog.set_level(logging.INFO, logger="games.autoplay")
    first = start_game(alice, bob)
    second = start_game(charlie, bob)
    lobby = services.lobby_create(host=alice, name="bots", seat_count=3, disconnect_grace=0)
    for seat in (1, 2):
        services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=seat, level="medium")
    bots_game = services.lobby_start(lobby_id=lobby.pk, user=alice)  # alice away: all bots

    stop, errors, played = threading.Event(), [], []
    acked = {first.pk: [], second.pk: []}
    players = [
        _thread(_play, errors, first.pk, [alice, bob], random.Random(1), acked[first.pk], stop),
        _thread(_play, errors, second.pk, [charlie, bob], random.Random(2), acked[second.pk], stop),
    ]
    runner = _thread(_run_bots, errors, played, stop)
    for thread in [runner, *players]:
        thread.start()
    for thread in players:
        thread.join(timeout=300)
    # On a loaded machine the players may finish first: the runner goes on to its 21st step.
    deadline = time.monotonic() + 60
    while sum(played) <= 20 and time.monotonic() < deadline and runner.is_alive():
        time.sleep(0.05)
    stop.set()
    runner.join(timeout=60)

    assert not errors, errors
    runner_failures = [r.getMessage() for r in caplog.records if r.name == "games.autoplay"]
    assert not runner_failures, runner_failures
    for game_id, versions in acked.items():
        assert len(versions) == MOVES_PER_PLAYER_THREAD or (
            Game.objects.get(pk=game_id).status == Game.Status.FINISHED
        )
        stored = set(Move.objects.filter(game_id=game_id).values_list("version", flat=True))
        assert set(versions) <= stored, sorted(set(versions) - stored)
    bots_game.refresh_from_db()
    assert bots_game.version == sum(played)  # every step the runner counted is stored
    assert Move.objects.filter(game=bots_game).count() > 20
