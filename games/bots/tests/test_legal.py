import random

import pytest

from games.bots import LEVEL_LABELS, LEVELS, get_bot

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
    for players in (2, 4):
        for _game, _seat, view in random_views(seed=players, count=2500, players=players):
            action = bot.choose(view, rng)
            assert action in view.legal_actions(), (action, view)
