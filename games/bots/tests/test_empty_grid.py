"""Positions from hand-made decks that once crashed a bot or the determinization: an opponent
whose grid is empty (all four columns removed) and a drawn card pending."""

import random

import pytest

from games.bots import LEVELS, get_bot
from games.engine import FINAL, ROUND_OVER, draw, flip, swap, view_of
from games.engine.sampling import sample_game
from games.engine.tests.helpers import new_game

from .positions import random_views

# Seat 1's four columns are triples (5, 6, 7, 8): turning all of its cards removes them all.
EMPTYING = [5, 6, 7, 8] * 3
SEAT1_FLIPS = [4, 5, 8, 9, 2, 6, 10, 3, 7, 11]


def _seat1_emptied_its_grid():
    """Two players; seat 1 ends the round with an empty grid, seat 0 has its final turn."""
    game = new_game(
        2,
        grids={0: [1, 2, 3, 4, 9, 10, 11, 12, -1, 0, 1, 2], 1: EMPTYING},
        reveals=[(0, 1), (0, 1)],
    )
    assert game.current == 1  # 5 + 6 beats 1 + 2
    for pos in SEAT1_FLIPS:
        game.apply(1, draw())
        game.apply(1, flip(pos))
        if game.phase == FINAL:
            break
        game.apply(0, draw())
        game.apply(0, swap(0))  # face up already: seat 0 never runs out of face-down cards
    assert game.phase == FINAL and game.ender == 1 and game.current == 0
    assert set(game.cards[1]) == {None}
    return game


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_plays_its_final_turn_before_an_emptied_grid(level):
    game = _seat1_emptied_its_grid()
    bot, rng = get_bot(level), random.Random(1)
    for _ in range(2):  # the draw (or take), then the swap or flip
        if game.phase != FINAL:
            break
        view = view_of(game, 0)
        step = bot.choose(view, rng)
        assert step in view.legal_actions()
        game.apply(0, step)
    assert game.phase == ROUND_OVER
    assert game.results[-1].raw[1] == 0


def test_a_sampled_game_goes_on_from_the_drawers_own_view():
    game = _seat1_emptied_its_grid()
    game.apply(0, draw())
    view = view_of(game, 0)
    for step in view.legal_actions():
        sampled = sample_game(view, random.Random(2))
        sampled.apply(0, step)
        assert sampled.phase == ROUND_OVER


def test_a_sampled_game_goes_on_from_anyones_view_with_a_card_drawn():
    checked = 0
    for game, seat, _view in random_views(seed=23, count=600, players=3):
        if game.drawn is None:
            continue
        for viewer in range(game.n):
            view = view_of(game, viewer)
            for step in view_of(game, seat).legal_actions():
                sampled = sample_game(view, random.Random(checked))
                sampled.apply(seat, step)
                checked += 1
    assert checked > 1000
