"""The sampler deals only what a seat cannot see; the rollout plays a round to its end."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots.rollout import best_place, outcome, play_out, scores, step
from games.bots.sampler import deal
from games.engine import HIDDEN, Game, view_of
from games.engine.sampling import sample_game, unseen_cards

from .positions import random_views


def _turn_views(seed, count, players):
    for game, seat, view in random_views(seed=seed, count=count, players=players):
        if view.phase in ("play", "final") and view.current == seat:
            yield game, seat, view


def _check_consistent(view, table):
    assert table.n == len(view.grids)
    dealt = []
    for grid, cards, up in zip(view.grids, table.cards, table.up, strict=True):
        for shown, card, face_up in zip(grid, cards, up, strict=True):
            if shown == HIDDEN:
                assert not face_up and card is not None
                dealt.append(card)
            else:
                assert face_up and card == shown
    assert len(table.pile) == view.deck_count
    assert table.discard == list(view.discard)
    assert table.drawn == view.drawn
    assert Counter(dealt + table.pile) == Counter(unseen_cards(view))
    assert table.hidden == [g.count(HIDDEN) for g in view.grids]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 200), players=st.integers(2, 6))
def test_a_dealt_table_agrees_with_the_view_and_never_peeks(seed, steps, players):
    *_, (game, seat, view) = random_views(seed=seed, count=steps + 1, players=players)
    if view.phase not in ("play", "final") or view.current != seat:
        return
    table = deal(view, random.Random(seed))
    _check_consistent(view, table)
    # the same view over other hidden cards deals the very same table
    other = sample_game(view, random.Random(seed + 1))
    again = deal(view_of(other, seat), random.Random(seed))
    assert (again.cards, again.pile, again.drawn) == (table.cards, table.pile, table.drawn)


def test_deals_differ_from_seed_to_seed():
    _game, _seat, view = next(_turn_views(seed=3, count=50, players=4))
    piles = {tuple(deal(view, random.Random(s)).pile) for s in range(20)}
    assert len(piles) == 20


def test_a_rollout_ends_the_round_and_keeps_the_150_cards():
    for _game, seat, view in _turn_views(seed=8, count=600, players=3):
        rng = random.Random(len(view.discard))
        table = deal(view, rng)
        action = rng.choice(view.legal_actions())
        step(table, seat, action, rng)
        result = play_out(table, rng)
        assert table.ender is not None
        cards = [c for g in table.cards for c in g if c is not None]
        assert len(cards) + len(table.pile) + len(table.discard) == 150
        assert len(result) == 3 and result == scores(table)
        assert outcome(result, seat) == result[seat] - (sum(result) - result[seat]) / 2


def test_the_ender_is_doubled_only_when_not_strictly_lowest():
    game = Game(["a", "b"], seed=1)
    for s in (0, 1):
        game.apply(s, game.legal_actions(s)[0])
        game.apply(s, game.legal_actions(s)[0])
    table = deal(view_of(game, game.current), random.Random(0))
    table.cards = [[1] + [0] * 11, [2] * 12]
    table.up = [[True] * 12, [True] * 12]
    table.clears = False
    table.ender = 0
    assert scores(table) == [1, 24]
    table.ender = 1
    assert scores(table) == [1, 48]
    table.cards[0] = [-1] + [0] * 11
    table.ender = 0
    assert scores(table) == [-1, 24]


def test_best_place_counts_a_completed_column_whole():
    grid = [7, 1, 2, 3, 7, 1, 2, 3, 9, 1, 2, 3]
    up = [True] * 12
    assert best_place(grid, up, 7, 5.0, False) == (2 + 21, 8)
