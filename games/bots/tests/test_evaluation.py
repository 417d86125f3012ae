"""The evaluation API: hand-built positions whose best move is known, the strong bot's choice,
and the view alone deciding every number."""

import random

from games.bots import get_bot
from games.bots.evaluation import best, evaluate
from games.engine import Rules, View, draw, flip, swap, take_discard, view_of
from games.engine.sampling import sample_game

from .positions import random_views

H = "?"


def make_view(mine, theirs, *, discard=(5,), drawn=None, ender=None, phase="play") -> View:
    grids = (tuple(mine), tuple(theirs))
    shown = sum(1 for g in grids for c in g if c is not None)  # face up or face down
    return View(
        seat=0,
        players=("ann", "ben"),
        rules=Rules(),
        round=1,
        phase=phase,
        current=0,
        starter=0,
        ender=ender,
        deck_count=150 - shown - len(discard) - (drawn is not None),
        discard=tuple(discard),
        drawing=drawn is not None,
        drawn=drawn,
        grids=grids,
        revealed=(2, 2),
        totals=(0, 0),
        results=(),
    )


def cost_of(moves, action) -> float:
    return next(m.cost for m in moves if m.action == action)


def test_taking_the_discard_that_completes_a_column_is_best():
    mine = [7, H, H, H, 7, H, H, H, 3, H, H, H]
    theirs = [H] * 12
    moves = evaluate(make_view(mine, theirs, discard=(2, 7)))
    top = best(moves)
    assert top.action == take_discard(8)
    assert top.cost < -10  # 7 + 7 + 3 leave the grid (the pair might have gone later)
    assert cost_of(moves, draw()) - top.cost > 8


def test_ending_the_round_into_a_certain_doubling_is_a_blunder():
    mine = [10, 11, 9, 12, 11, 10, 12, 9, 9, 12, 10, H]  # 115 points showing
    theirs = [0, 0, 1, -1, 0, 1, -1, 0, 2, 1, H, H]
    moves = evaluate(make_view(mine, theirs, drawn=0))
    top = best(moves)
    assert top.action == swap(3)  # the 0 over a 12, and play on
    ending = cost_of(moves, swap(11))
    assert ending - top.cost > 100  # 115 doubled, against playing on
    assert cost_of(moves, flip(11)) - top.cost > 100


def test_throwing_away_a_minus_two_over_a_twelve_is_clearly_worse():
    mine = [12, 3, H, H, 4, H, H, H, 5, H, H, H]
    theirs = [H] * 12
    moves = evaluate(make_view(mine, theirs, drawn=-2))
    top = best(moves)
    assert top.action == swap(0)
    assert all(cost_of(moves, flip(p)) - top.cost > 10 for p in range(12) if mine[p] == H)


def test_every_legal_step_is_valued_once():
    for _game, seat, view in random_views(seed=3, count=300, players=3):
        moves = evaluate(view)
        if view.phase == "reveal":
            assert moves == []
            continue
        if view.current != seat:
            continue
        assert len(moves) == len(set(view.legal_actions()))
        assert {m.action for m in moves} == set(view.legal_actions())


def test_the_strong_bot_makes_the_best_move():
    bot = get_bot("strong")
    checked = 0
    for _game, _seat, view in random_views(seed=8, count=1500, players=4):
        if view.phase == "reveal":
            continue
        assert bot.choose(view, random.Random(0)) == best(evaluate(view)).action
        checked += 1
    assert checked > 1000


def test_the_hidden_cards_change_no_number():
    for game, seat, view in random_views(seed=21, count=300, players=3):
        if view.phase == "reveal":
            continue
        other = sample_game(view, random.Random(len(view.discard)))
        assert evaluate(view_of(game, seat)) == evaluate(view_of(other, seat))


def test_the_examples_in_the_docstrings_hold():
    import doctest

    import games.bots.evaluation

    assert doctest.testmod(games.bots.evaluation).failed == 0
