"""The expert: its planning model while the round goes on, a search as the round ends."""

import random

import pytest

from games.bots import expert as expert_module
from games.bots.expert import ExpertBot, candidates_of
from games.bots.knowledge import round_ending
from games.bots.strong import StrongBot, best_of

from .positions import random_views


def _turn_views(ending: bool, count: int):
    views = [
        view
        for _game, seat, view in random_views(seed=29, count=3000)
        if view.phase in ("play", "final") and view.current == seat
        if round_ending(view) == ending
    ]
    assert len(views) >= count
    return views[:count]


@pytest.fixture
def searches(monkeypatch):
    """The views the expert searched, its search otherwise unchanged."""
    seen = []
    real = expert_module.sample_outcomes

    def spy(view, *args, **kwargs):
        seen.append(view)
        return real(view, *args, **kwargs)

    monkeypatch.setattr(expert_module, "sample_outcomes", spy)
    return seen


def test_while_the_round_goes_on_it_plays_its_models_best_step_without_search(searches):
    model = StrongBot(plan=True)
    for view in _turn_views(ending=False, count=200):
        assert ExpertBot().choose(view, random.Random(1)) == best_of(model.values(view)[1])[0]
    assert searches == []


def test_as_the_round_ends_it_searches_among_the_close_candidates(searches):
    model = StrongBot(plan=True)
    views = _turn_views(ending=True, count=200)
    several = [v for v in views if len(candidates_of(*_ranked(model, v))) > 1]
    assert several
    for view in views:
        moves = model.values(view)[1]
        chosen = ExpertBot().choose(view, random.Random(1))
        assert chosen in candidates_of(*_ranked(model, view))
        assert chosen in [action for action, _value in moves]
    searched = list(dict.fromkeys(id(view) for view in searches))  # a batch a call
    assert searched == [id(view) for view in several]


def _ranked(model, view):
    moves = model.values(view)[1]
    top, value = best_of(moves)
    return moves, top, value
