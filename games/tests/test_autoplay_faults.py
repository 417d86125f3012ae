"""The bot runner when a step fails, and when only bots are left: it writes through the
services, tries a passing failure again at once, looks again (never in a hot loop) after a
refusal, and stops a game that bots alone would play for ever."""

import logging
from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone

from games import autoplay, engine, services
from games.models import Game, Lobby, Move

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _short_delay(settings):
    settings.SKYJO_BOT_DELAY = 0.5


def _bots_game(alice, grace=60):
    """alice and two medium bots; with ``grace=0`` alice counts as away, so bots play it all."""
    lobby = services.lobby_create(host=alice, name="t", seat_count=3, disconnect_grace=grace)
    for seat in (1, 2):
        services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=seat, level="medium")
    return services.lobby_start(lobby_id=lobby.pk, user=alice)


def _later():
    return timezone.now() + timedelta(seconds=5)


def test_a_passing_database_failure_is_tried_again_at_once(alice, monkeypatch, caplog):
    game = _bots_game(alice)
    apply, calls = services.game_apply_action, []

    def locked_once(**kwargs):
        calls.append(kwargs)
        if len(calls) == 1:
            raise OperationalError("database is locked")
        return apply(**kwargs)

    monkeypatch.setattr(services, "game_apply_action", locked_once)
    caplog.set_level(logging.INFO, logger="games.autoplay")
    assert autoplay.play_due_turns(now=_later()) == 1
    assert len(calls) == 2 and Move.objects.filter(game=game).count() == 1
    assert "trying again now" in caplog.text


def test_a_refused_step_is_rescheduled_not_retried_in_a_loop(alice, monkeypatch, caplog, settings):
    settings.SKYJO_BOT_DELAY = 60
    game = _bots_game(alice)
    Game.objects.filter(pk=game.pk).update(bot_due_at=timezone.now() - timedelta(seconds=1))
    monkeypatch.setattr(autoplay, "_choose", lambda level, state, seat: engine.reveal(99))
    caplog.set_level(logging.INFO, logger="games.autoplay")
    now = _later()
    assert autoplay.play_due_turns(now=now) == 0
    assert "There is no card at that position." in caplog.text
    game.refresh_from_db()
    assert game.bot_due_at > now  # looked at again after the bot delay, not on the next pass
    assert autoplay.play_due_turns(now=now) == 0
    assert caplog.text.count("There is no card at that position.") == 1
    assert Move.objects.filter(game=game).count() == 0


def test_a_game_played_by_bots_alone_is_stopped_after_the_turn_cap(alice, monkeypatch, caplog):
    monkeypatch.setattr(autoplay, "STALL_TURNS", 6)
    game = _bots_game(alice, grace=0)  # alice never came: her seat is played by the bot too
    for _ in range(200):
        if not autoplay.play_due_turns(now=_later()):
            break
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.bot_due_at is None
    assert Lobby.objects.get(pk=game.lobby_id).status == Lobby.Status.CLOSED
    assert "stopped: round 1 has gone 6 turns with only bots playing" in caplog.text
    assert autoplay.play_due_turns(now=_later()) == 0


def test_the_turn_cap_spares_a_game_with_a_human_at_the_table(alice, monkeypatch):
    monkeypatch.setattr(autoplay, "STALL_TURNS", 0)
    game = _bots_game(alice)  # alice is within her grace: she still plays
    assert autoplay.play_due_turns(now=_later()) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
