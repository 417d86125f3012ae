import random

import pytest

from games.bots import LEVEL_LABELS, LEVELS, get_bot
from games.engine import Game, view_of

from .positions import random_views


def test_levels_have_labels():
    assert set(LEVEL_LABELS) == set(LEVELS)


def test_unknown_level_raises_value_error():
    with pytest.raises(ValueError):
        get_bot("grandmaster")


@pytest.mark.parametrize("level", LEVELS)
def test_it_plays_only_legal_actions_in_random_positions(level):
    bot = get_bot(level)
    rng = random.Random(level)
    count = 600 if level == "expert" else 2500  # the expert searches as rounds end
    for players in (2, 4):
        for _game, _seat, view in random_views(seed=players, count=count, players=players):
            action = bot.choose(view, rng)
            assert action in view.legal_actions(), (action, view)


def test_bots_finish_whole_games_among_themselves():
    for level in LEVELS:
        bots = [get_bot(level) for _ in range(3)]
        rng = random.Random(level)
        game = Game(["a", "b", "c"], seed=4)
        steps = 0
        while not game.finished:
            if game.phase == "round_over":
                game.next_round()
                continue
            seat = game.to_act()[0]
            game.apply(seat, bots[seat].choose(view_of(game, seat), rng))
            steps += 1
            assert steps < 5000, f"{level} bots stall"
