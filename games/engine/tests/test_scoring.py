"""Round scores and the doubling rule, with the worked examples of the seed texts."""

import pytest

from games.engine import Rules, view_of

from .grids import (
    A10,
    ALICE35,
    B24,
    BOB28,
    C10,
    CAROL31,
    DAVE40,
    MINUS1,
    MINUS5,
    ZERO_ENDER,
    ZERO_OTHER,
)
from .helpers import flip_next, flip_to_round_end, new_game, turn


def play_round(grids, rules=None):
    """Seat 0 starts (highest pair), everyone draws and flips in order; seat 0 ends."""
    game = new_game(
        len(grids),
        grids=dict(enumerate(grids)),
        reveals=[(0, 1)] * len(grids),
        rules=rules,
    )
    assert game.current == 0
    flip_to_round_end(game)
    assert game.results[-1].ender == 0
    return game.results[-1]


def test_the_hand_made_grids_hold_the_sums_they_claim():
    sums = [sum(g) for g in (A10, B24, C10, ALICE35, BOB28, CAROL31, DAVE40, MINUS1, MINUS5)]
    assert sums == [10, 24, 10, 35, 28, 31, 40, -1, -5]
    assert sum(ZERO_ENDER) == sum(ZERO_OTHER) == 0


class TestRoundScore:
    def test_a_round_scores_the_sum_of_the_remaining_cards(self):
        result = play_round([A10, B24, C10])
        assert result.raw == (10, 24, 10)
        assert result.starter == 0 and result.ender == 0

    def test_the_round_result_in_json(self):
        result = play_round([A10, B24])
        assert result.to_json() == {"starter": 0, "ender": 0, "raw": [10, 24], "scores": [10, 24]}


class TestDoubling:
    def test_a_tie_doubles_ten_to_twenty(self):
        # seed 000: A ends with 10, B has 24 and C has 10; A's 10 becomes 20
        result = play_round([A10, B24, C10])
        assert result.scores == (20, 24, 10) and result.doubled

    def test_a_lower_score_doubles_thirty_five_to_seventy(self):
        # seed 001: Alice ends with 35, Bob 28, Carol 31, Dave 40
        result = play_round([ALICE35, BOB28, CAROL31, DAVE40])
        assert result.raw == (35, 28, 31, 40)
        assert result.scores == (70, 28, 31, 40)

    def test_the_lowest_ender_is_not_doubled(self):
        result = play_round([A10, B24])
        assert result.scores == (10, 24) and not result.doubled

    def test_a_negative_score_is_never_doubled(self):
        result = play_round([MINUS1, MINUS5])
        assert result.raw == (-1, -5) and result.scores == (-1, -5)

    def test_a_zero_score_is_never_doubled(self):
        result = play_round([ZERO_ENDER, ZERO_OTHER])
        assert result.raw == (0, 0) and result.scores == (0, 0)

    def test_without_double_on_tie_a_tie_does_not_double(self):
        result = play_round([A10, B24, C10], Rules(double_on_tie=False))
        assert result.scores == (10, 24, 10)

    def test_without_double_on_tie_a_lower_score_still_doubles(self):
        result = play_round([ALICE35, BOB28, CAROL31, DAVE40], Rules(double_on_tie=False))
        assert result.scores == (70, 28, 31, 40)

    def test_totals_add_the_doubled_score(self):
        game = new_game(
            3, grids={0: A10, 1: B24, 2: C10}, reveals=[(0, 1)] * 3, rules=Rules(end_score=500)
        )
        flip_to_round_end(game)
        assert game.totals == [20, 24, 10]
        assert [p["total"] for p in view_of(game).to_json()["players"]] == [20, 24, 10]


class TestSeedExamples:
    def test_a_drawn_twelve_removes_a_column_of_twelves(self):
        # seed 000: a column 12, 12 and a face-down card; the drawn 12 replaces the face-down one
        game = new_game(
            2,
            grids={0: {2: 12, 6: 12, 10: 5}, 1: {0: 0, 1: 0}},
            draws=[12],
            reveals=[(2, 6), (0, 1)],
        )
        turn(game, {"take": "deck", "swap": 10})
        assert [game.cards[0][p] for p in (2, 6, 10)] == [None, None, None]
        assert game.discard[-4:] == [5, 12, 12, 12]

    def test_a_removed_column_of_fours_does_not_count(self):
        # seed 001, example 2: the grid scores 31 once the three 4s are gone
        grid = [-1, 4, 2, 3, 0, 4, 5, 6, 1, 4, 7, 8]
        game = new_game(
            2,
            grids={0: grid, 1: [0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12]},
            reveals=[(1, 5), (0, 1)],
        )
        assert game.current == 0
        flip_to_round_end(game)
        assert game.cards[0][1::4] == [None, None, None]
        assert game.results[0].raw[0] == 31

    @pytest.mark.parametrize("clears,raw_b", [(True, 13), (False, 40)])
    def test_the_final_reveal_removes_columns_only_with_the_option(self, clears, raw_b):
        # seed 000: the rule of three also holds when the last cards are turned at round end
        b_grid = [3, 1, 2, 9, 2, 1, 3, 9, 1, 2, 1, 9]
        game = new_game(
            2,
            grids={0: A10, 1: b_grid},
            draws=[None] * 18 + [0],
            reveals=[(0, 1), (0, 1)],
            rules=Rules(final_reveal_clears_columns=clears),
        )
        while game.phase == "play":
            seat = game.current
            turn(game, {"take": "deck", "flip": next(p for p in range(12) if not game.up[seat][p])})
        assert game.ender == 0 and not game.up[1][11] and game.discard[-1] == 0
        turn(game, {"take": "discard", "swap": 0})  # B's last turn leaves position 11 face down
        result = game.results[0]
        assert result.raw == (10, raw_b) and result.scores == (10, raw_b)
        assert all(all(up) for up in game.up)
        if clears:
            assert game.cards[1][3::4] == [None, None, None] and game.discard[-3:] == [9, 9, 9]
        else:
            assert game.cards[1][3::4] == [9, 9, 9]

    @pytest.mark.parametrize("clears,raw", [(True, (10, 21, 50)), (False, (10, 63, 77))])
    def test_the_final_reveal_removes_several_columns_of_several_players(self, clears, raw):
        # Seat 0 (A10) flips its way out. Seat 1 keeps columns 0 (6s) and 3 (8s) face down,
        # swapping each drawn 0 into position 1; seat 2 keeps column 2 (9s) face down, taking
        # the discard into position 1. The final reveal completes all three columns at once.
        seat1 = [6, 1, 2, 8, 6, 3, 4, 8, 6, 5, 7, 8]
        seat2 = [7, 5, 9, 3, 10, 11, 9, 4, 12, 1, 9, 2]
        game = new_game(
            3,
            grids={0: A10, 1: seat1, 2: seat2},
            draws=[None, 0] * 10,
            reveals=[(0, 1), (1, 2), (1, 3)],
            rules=Rules(end_score=1000, final_reveal_clears_columns=clears),
        )
        assert game.current == 0
        while game.phase in ("play", "final"):
            if game.current == 0:
                flip_next(game)
            elif game.current == 1:
                turn(game, {"take": "deck", "swap": 1})
            else:
                turn(game, {"take": "discard", "swap": 1})
        result = game.results[0]
        assert result.ender == 0 and result.raw == raw and result.scores == raw
        removed = [[col for col in range(4) if game.cards[s][col] is None] for s in range(3)]
        assert removed == ([[], [0, 3], [2]] if clears else [[], [], []])
        assert all(all(up) for up in game.up)
