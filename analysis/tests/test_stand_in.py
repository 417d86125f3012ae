"""The turns the server played for a human (away, out of time) are not that player's: the
analysis leaves them unjudged and says so."""

import random
import secrets
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from analysis.models import GameAnalysis
from analysis.services import analysis_run_due
from games import engine, services
from games.autoplay import play_due_turns
from games.bots import get_bot
from games.models import Game, GamePlayer, Move
from games.tests.helpers import start_game

pytestmark = pytest.mark.django_db


def _play_with_bob_away_after(game, alice, bob, steps: int) -> None:
    """Alice and bob play ``steps`` steps themselves (as the medium bot would); then bob is away and the
    runner plays his turns to the end of the game, alice still playing hers."""
    rng = random.Random(2)
    GamePlayer.objects.filter(game=game).update(connections=1, last_seen=timezone.now())
    for played in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return
        if played == steps:
            long_ago = timezone.now() - timedelta(minutes=5)
            GamePlayer.objects.filter(game=game, seat=1).update(connections=0, last_seen=long_ago)
        state = engine.from_snapshot(game.snapshot)
        if state.phase == engine.ROUND_OVER:
            services.game_set_ready(game_id=game.pk, user=alice)
            if played < steps:
                services.game_set_ready(game_id=game.pk, user=bob)
            else:
                assert play_due_turns(now=timezone.now() + timedelta(hours=1)) == 1
            continue
        seat = state.to_act()[0]
        if seat == 1 and played >= steps:
            assert play_due_turns(now=timezone.now() + timedelta(hours=1)) == 1
            continue
        action = get_bot("medium").choose(engine.view_of(state, seat), rng).to_json()
        user = alice if seat == 0 else bob
        services.game_apply_action(game_id=game.pk, user=user, action=action, version=game.version)
    raise AssertionError("the game did not end")


def test_the_turns_played_for_an_away_player_are_not_judged_as_theirs(
    client, alice, bob, monkeypatch
):
    monkeypatch.setattr(secrets, "randbits", random.Random(4).getrandbits)
    game = start_game(alice, bob, end_score=50, disconnect_grace=5)
    _play_with_bob_away_after(game, alice, bob, steps=40)
    turns = Move.objects.filter(game=game).exclude(action__has_key="reveal")
    for_bob = turns.filter(seat=1, stand_in=True).count()
    by_bob = turns.filter(seat=1, stand_in=False).count()
    assert for_bob > 10 and by_bob > 10
    assert not turns.filter(seat=0, stand_in=True).exists()

    assert analysis_run_due() == 1
    data = GameAnalysis.objects.get(game=game).data
    alice_summary, bob_summary = data["players"]
    assert bob_summary["stand_in"] == for_bob and bob_summary["decisions"] == by_bob
    assert alice_summary["stand_in"] == 0
    assert alice_summary["decisions"] == turns.filter(seat=0).count()
    own_moves = turns.filter(seat=1, stand_in=False).order_by("version")
    judged = [d["move"] for d in data["decisions"] if d["seat"] == 1]
    assert judged == list(own_moves.values_list("action", flat=True))

    client.force_login(alice)
    summary = client.get(reverse("analysis:summary", args=[game.pk])).content.decode()
    assert f"bob: {for_bob} moves played for them by the server" in summary
    assert "alice: " not in summary
