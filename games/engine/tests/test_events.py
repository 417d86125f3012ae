"""apply_described: the same step as Game.apply, and only public facts about it."""

import random

import pytest

from games.engine import (
    HIDDEN,
    Action,
    Game,
    NothingDrawn,
    apply_described,
    draw,
    flip,
    reveal,
    swap,
    take_discard,
    to_snapshot,
    view_of,
)

from .helpers import new_game

GRID0 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
GRID1 = [0, -1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]


def test_a_draw_tells_who_drew_and_nothing_of_the_card():
    game = new_game(grids={0: GRID0, 1: GRID1}, reveals=[(0, 1), (0, 1)], draws=[7])
    assert apply_described(game, game.current, draw()) == {"kind": "draw", "seat": 0}
    assert game.drawn == 7


def test_a_swap_into_a_face_down_card_tells_both_cards_once_they_are_shown():
    game = new_game(grids={0: GRID0, 1: GRID1}, reveals=[(0, 1), (0, 1)], draws=[7])
    apply_described(game, 0, draw())
    facts = apply_described(game, 0, swap(5))
    assert facts == {
        "kind": "swap",
        "seat": 0,
        "pos": 5,
        "value": 7,
        "replaced": 6,
        "was_down": True,
    }
    assert game.discard[-1] == 6 and game.cards[0][5] == 7


def test_taking_the_discard_and_flipping():
    game = new_game(grids={0: GRID0, 1: GRID1}, discard=-2, reveals=[(0, 1), (0, 1)], draws=[9])
    assert apply_described(game, 0, take_discard(1)) == {
        "kind": "discard",
        "seat": 0,
        "pos": 1,
        "value": -2,
        "replaced": 2,
        "was_down": False,
    }
    apply_described(game, 1, draw())
    assert apply_described(game, 1, flip(11)) == {
        "kind": "flip",
        "seat": 1,
        "pos": 11,
        "value": 11,
        "discarded": 9,
    }


def test_the_last_reveal_tells_who_starts():
    game = new_game(grids={0: GRID0, 1: GRID1})
    for seat, pos in ((0, 0), (0, 1), (1, 0)):
        assert "starts" not in apply_described(game, seat, reveal(pos))
    facts = apply_described(game, 1, reveal(1))
    assert facts == {"kind": "reveal", "seat": 1, "pos": 1, "value": -1, "starts": 0}


def test_a_column_of_three_equal_cards_leaving():
    grid = [5, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    game = new_game(grids={0: grid, 1: GRID1}, reveals=[(0, 4), (0, 1)], draws=[5])
    apply_described(game, 0, draw())
    facts = apply_described(game, 0, swap(8))
    assert facts["removed"] == [[0, 5]]
    assert game.cards[0][0] is None


def test_going_out_then_the_round_and_the_game_ending():
    game = new_game(grids={0: GRID0, 1: GRID1}, reveals=[(0, 1), (0, 1)])
    game.rules = game.rules.__class__(**{**game.rules.to_json(), "end_score": 10})
    for pos in range(2, 11):
        game.up[0][pos] = True
    game.hidden[0] = 1
    apply_described(game, 0, draw())
    assert apply_described(game, 0, flip(11))["went_out"] is True
    apply_described(game, 1, draw())
    facts = apply_described(game, 1, flip(11))
    assert facts["round_over"] == 1 and facts["game_over"] is True
    assert game.phase == "game_over"


def test_a_refused_step_raises_and_changes_nothing():
    game = new_game(grids={0: GRID0, 1: GRID1}, reveals=[(0, 1), (0, 1)])
    before = to_snapshot(game)
    with pytest.raises(NothingDrawn):
        apply_described(game, 0, swap(3))
    assert to_snapshot(game) == before


@pytest.mark.parametrize("seed", range(6))
def test_random_games_play_the_same_and_tell_only_what_everyone_sees(seed):
    rng = random.Random(seed)
    plain = Game(["a", "b", "c"], seed=seed)
    described = Game(["a", "b", "c"], seed=seed)
    while not plain.finished:
        if plain.phase == "round_over":
            plain.next_round()
            described.next_round()  # the same seed: the same deck
            continue
        seat = plain.to_act()[0]
        action = rng.choice(plain.legal_actions(seat))
        before = view_of(described, None)
        plain.apply(seat, action)
        facts = apply_described(described, seat, Action.from_json(action.to_json()))
        assert to_snapshot(described)["cards"] == to_snapshot(plain)["cards"]
        after = view_of(described, None)
        if facts["kind"] == "draw":
            assert set(facts) == {"kind", "seat"}
            continue
        pos = facts["pos"]
        shown = [after.grids[seat][pos], *after.discard[-4:], *sum(after.grids, ())]
        assert facts["value"] in shown and facts["value"] != HIDDEN
        if "replaced" in facts:
            assert facts["was_down"] == (before.grids[seat][pos] == HIDDEN)
            assert facts["replaced"] in after.discard or after.deck_count > before.deck_count
            if not facts["was_down"]:
                assert facts["replaced"] == before.grids[seat][pos]
        if facts["kind"] == "flip":
            assert before.grids[seat][pos] == HIDDEN
