"""The planning term of the expert's model: what the seat's next turns will probably save."""

import pytest

from games.bots.future import Savings, future_gain, placed
from games.bots.strong import StrongBot
from games.engine import draw, take_discard

from .test_evaluation import make_view

H = "?"
# Half the unseen cards are 0s, half 10s: every expected saving is easy to work out by hand.
HALVES = Savings([0.0, 0.0, 0.5] + [0.0] * 9 + [0.5, 0.0, 0.0], mean=5.0)


def test_savings_are_the_expected_improvement_by_one_card_drawn():
    assert HALVES.by_value[12 + 2] == pytest.approx(0.5 * 12 + 0.5 * 2)
    assert HALVES.by_value[5 + 2] == pytest.approx(0.5 * 5)
    assert HALVES.by_value[0 + 2] == 0
    assert HALVES.face_down == pytest.approx(0.5 * 5)


def test_no_turn_left_saves_nothing():
    assert future_gain([12] * 12, 0, HALVES) == 0


def test_the_worst_cards_are_improved_first_once_a_turn():
    grid = [12, 1, 1, 1, 9, 1, 1, 1, 1, 1, 1, 1]
    assert future_gain(grid, 1, HALVES) == pytest.approx(7.0)  # the 12: (12 + 2) / 2
    assert future_gain(grid, 2, HALVES) == pytest.approx(7.0 + 4.5)  # then the 9
    assert future_gain(grid, 3, HALVES) == pytest.approx(7.0 + 4.5 + 0.5)  # then a 1


def test_a_face_down_card_counts_at_the_mean_and_a_pairs_cards_are_kept():
    grid = [12, 0, 0, 0, 12, 0, 0, 0, H, 0, 0, 0]  # two 12s waiting for a third
    assert future_gain(grid, 1, HALVES) == pytest.approx(HALVES.face_down)


def test_turning_a_card_up_is_worth_something_when_turns_remain():
    grid = [H, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    now = future_gain(grid, 1, HALVES)
    turned = [future_gain(placed(grid, 0, v), 1, HALVES) for v in (0, 10)]
    assert sum(turned) / 2 > now  # a 10 turned up is worth replacing: 0.5 * 5 over 2.5 * 1


def test_placed_removes_a_completed_column():
    grid = [4, H, H, H, 4, H, H, H, H, H, H, H]
    assert placed(grid, 8, 4)[0::4] == [None, None, None]
    assert placed(grid, 8, 5)[0::4] == [4, 4, 5]
    assert grid[8] == H  # the grid itself is left alone


def test_the_expert_model_charges_less_for_a_high_card_the_next_turns_will_replace():
    # Taking an 11 over a face-up 4 early in the round: the static grid value calls it a
    # blunder; played on, the 11 is usually replaced within a few turns.
    mine = [4, H, H, H, 6, H, H, H, 3, H, H, H]
    theirs = [2, H, H, H, 5, H, H, H, H, H, H, H]
    view = make_view(mine, theirs, discard=(7, 11))

    def extra_cost(bot):
        moves = dict(bot.values(view)[1])
        return moves[take_discard(0)] - moves[draw()]

    static, planned = extra_cost(StrongBot()), extra_cost(StrongBot(plan=True))
    assert static > planned > 0


def test_planning_leaves_the_decisions_near_the_end_of_the_round_to_the_strong_model():
    mine = [10, 11, 9, 12, 11, 10, 12, 9, 9, 12, 10, H]  # one face-down card: may end now
    theirs = [0, 0, 1, -1, 0, 1, -1, 0, 2, 1, H, H]
    view = make_view(mine, theirs, drawn=0)
    assert StrongBot(plan=True).values(view) == StrongBot().values(view)
