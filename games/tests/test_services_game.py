import json
import random

import pytest

from core.errors import (
    BadRequest,
    GameOver,
    IllegalMove,
    NotAPlayer,
    StaleVersion,
    WrongPhase,
)
from games import engine, services
from games.models import Game, GamePlayer, Move, Round
from games.records import game_record
from games.tests.helpers import play_one, play_to_end, restore, reveal_all, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    return start_game(alice, bob, end_score=20)


def act(game, user, action, version=None):
    game.refresh_from_db()
    return services.game_apply_action(
        game_id=game.pk,
        user=user,
        action=action,
        version=game.version if version is None else version,
    )


def to_play(game, alice, bob):
    reveal_all(game, [alice, bob])
    state = restore(game)
    assert state.phase == "play"
    users = [alice, bob]
    return users[state.current], users[1 - state.current]


def test_reveals_are_saved_as_moves_and_versions(game, alice, bob):
    result = act(game, alice, {"reveal": 3})
    assert result.version == 1 and result.seat == 0
    move = Move.objects.get(game=game)
    assert (move.version, move.seat, move.action, move.round) == (1, 0, {"reveal": 3}, 1)
    assert restore(game).reveals[0] == [3]


def test_reveals_are_simultaneous_so_an_old_version_is_fine(game, alice, bob):
    act(game, alice, {"reveal": 3}, version=0)
    act(game, bob, {"reveal": 4}, version=0)
    assert restore(game).reveals == [[3], [4]]


def test_a_duplicate_reveal_is_refused_and_changes_nothing(game, alice):
    act(game, alice, {"reveal": 3})
    with pytest.raises(IllegalMove) as info:
        act(game, alice, {"reveal": 3}, version=0)
    assert info.value.code == "card_face_up"
    game.refresh_from_db()
    assert game.version == 1 and Move.objects.count() == 1


def test_a_third_reveal_is_refused(game, alice):
    act(game, alice, {"reveal": 3})
    act(game, alice, {"reveal": 4})
    with pytest.raises(IllegalMove) as info:
        act(game, alice, {"reveal": 5})
    assert info.value.code == "reveals_done"


def test_draw_then_swap(game, alice, bob):
    player, _other = to_play(game, alice, bob)
    act(game, player, {"take": "deck"})
    state = restore(game)
    assert state.drawn is not None
    drawn = state.drawn
    act(game, player, {"swap": 5})
    state = restore(game)
    seat = 0 if player == alice else 1
    assert state.cards[seat][5] == drawn and state.up[seat][5]


def test_draw_then_flip(game, alice, bob):
    player, _ = to_play(game, alice, bob)
    act(game, player, {"take": "deck"})
    drawn = restore(game).drawn
    act(game, player, {"flip": 7})
    assert restore(game).discard[-1] == drawn


def test_take_discard_and_swap(game, alice, bob):
    player, _ = to_play(game, alice, bob)
    top = restore(game).discard[-1]
    act(game, player, {"take": "discard", "swap": 6})
    seat = 0 if player == alice else 1
    assert restore(game).cards[seat][6] == top


def test_a_stale_version_is_refused_with_the_current_one(game, alice, bob):
    player, _ = to_play(game, alice, bob)
    game.refresh_from_db()
    old = game.version
    act(game, player, {"take": "deck"}, version=old)
    with pytest.raises(StaleVersion) as info:
        act(game, player, {"take": "deck"}, version=old)
    assert info.value.code == "stale_version" and info.value.current == old + 1
    assert str(old) not in info.value.message  # words for a player, no version numbers
    game.refresh_from_db()
    assert game.version == old + 1


def test_a_move_on_someone_elses_turn_is_refused(game, alice, bob):
    _player, other = to_play(game, alice, bob)
    with pytest.raises(IllegalMove) as info:
        act(game, other, {"take": "deck"})
    assert info.value.code == "not_your_turn"


def test_a_non_player_is_refused(game, charlie):
    with pytest.raises(NotAPlayer):
        act(game, charlie, {"reveal": 0})


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"reveal": 12}, "bad_position"),
        ({"reveal": -1}, "bad_position"),
        ({"reveal": "3"}, "bad_position"),
        ({"jump": 1}, "malformed_action"),
        ([1, 2], "malformed_action"),
        ({"take": "discard", "flip": 2}, "discard_must_be_swapped"),
    ],
)
def test_bad_actions_are_refused_by_name(game, alice, action, code):
    with pytest.raises(IllegalMove) as info:
        act(game, alice, action)
    assert info.value.code == code
    assert Move.objects.count() == 0


@pytest.mark.parametrize("version", [None, "0", 1.0, True])
def test_the_version_must_be_an_integer(game, alice, version):
    with pytest.raises(BadRequest):
        services.game_apply_action(
            game_id=game.pk, user=alice, action={"reveal": 0}, version=version
        )


def test_wrong_phase_moves_are_refused(game, alice, bob):
    with pytest.raises(IllegalMove) as info:
        act(game, alice, {"take": "deck"})
    assert info.value.code == "wrong_phase"
    with pytest.raises(WrongPhase):
        services.game_set_ready(game_id=game.pk, user=alice)


def test_a_whole_game_ends_with_scores_winners_and_rounds(game, alice, bob):
    play_to_end(game, [alice, bob], seed=4)
    game.refresh_from_db()
    state = engine.from_record(game_record(game))
    assert game.status == Game.Status.FINISHED and state.finished and game.finished_at
    players = list(GamePlayer.objects.filter(game=game))
    assert [p.total for p in players] == state.totals
    assert {p.seat for p in players if p.won} == set(state.winners)
    rounds = list(Round.objects.filter(game=game))
    assert len(rounds) == len(state.results)
    for row, result in zip(rounds, state.results, strict=True):
        assert row.scores == list(result.scores) and row.ender == result.ender
    assert Move.objects.filter(game=game).count() == sum(
        sum(len(r) for r in log.reveals) + sum(2 if a["take"] == "deck" else 1 for a in log.actions)
        for log in state.logs
    )
    game.lobby.refresh_from_db()
    assert game.lobby.status == "finished"
    with pytest.raises(GameOver):
        act(game, alice, {"take": "deck"})


def test_next_round_waits_for_every_player(alice, bob):
    game = start_game(alice, bob, end_score=1000)
    rng = random.Random(2)
    users = [alice, bob]
    while True:
        game.refresh_from_db()
        if game.phase == "round_over":
            break
        assert game.phase != "game_over"
        play_one(game, users, rng)
    services.game_set_ready(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.ready == [0] and game.phase == "round_over"
    services.game_set_ready(game_id=game.pk, user=alice)  # twice is harmless
    services.game_set_ready(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.phase == "reveal" and game.ready == []
    assert Round.objects.filter(game=game).count() == 2


def test_rematch_starts_one_new_game_with_the_same_players(game, alice, bob, charlie):
    with pytest.raises(WrongPhase):
        services.game_rematch(game_id=game.pk, user=alice)
    play_to_end(game, [alice, bob])
    with pytest.raises(NotAPlayer):
        services.game_rematch(game_id=game.pk, user=charlie)
    new = services.game_rematch(game_id=game.pk, user=bob)
    again = services.game_rematch(game_id=game.pk, user=alice)
    assert new == again and new.pk != game.pk
    assert game_record(new)["players"] == ["alice", "bob"]
    assert game_record(new)["rules"]["end_score"] == 20
    game.lobby.refresh_from_db()
    assert game.lobby.game == new and game.lobby.status == "playing"


def test_publishing_happens_after_commit_with_public_data_only(
    game, alice, bob, django_capture_on_commit_callbacks, monkeypatch
):
    sent = []
    monkeypatch.setattr("games.publish._send", lambda group, message: sent.append((group, message)))
    player, _ = to_play(game, alice, bob)
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.game_apply_action(
            game_id=game.pk, user=player, action={"take": "deck"}, version=game.version
        )
    assert len(callbacks) == 2  # the state held in this process, then the publishing
    group, message = sent[-1]
    assert group == f"game.{game.pk}" and message["type"] == "game.updated"
    assert message["drawer"] == restore(game).current == [alice, bob].index(player)
    view = json.loads(message["data"])["view"]
    assert view["drawn"] is None and view["drawing"] is True
    assert '"drawn":' in message["frame"][0] and message["frame"][1].startswith(",")
    assert "deck" not in view and "record" not in message
    state = restore(game)
    for seat, grid in enumerate(view["grids"]):
        for pos, value in enumerate(grid):
            assert value == (state.cards[seat][pos] if state.up[seat][pos] else "?")
