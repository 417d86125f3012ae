"""A board rebuilds only the grids a move changed (rendering.grid_html), in them only the
changed cards; the shells around grids and places' headers are rendered once (rendering.Shells),
a seat's controls only when they change (rendering.controls_html): the others come from the
process's caches, and what comes from them is the same as what is rendered from scratch."""

import random

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games import engine, movelog
from web.games import rendering


def _step(game: engine.Game) -> None:
    seat = game.to_act()[0]
    game.apply(seat, game.legal_actions(seat)[0])


def _meta(version: int) -> dict:
    return {"game": 1, "version": version, "status": "playing", "ready": [], "away": []}


CACHES = ("_grids", "_grid_shells", "_cells", "_place_shells", "_cards")


def _empty(cache):
    return {} if isinstance(cache, dict) else type(cache)(cache.size)


def _clear_caches() -> None:
    for name in CACHES:
        getattr(rendering, name).clear()


def _board_afresh(view, meta, monkeypatch) -> str:
    """The board rendered with empty caches; the process's own are left as they were."""
    with monkeypatch.context() as m:
        for name in CACHES:
            m.setattr(rendering, name, _empty(getattr(rendering, name)))
        return rendering.board_html(view, meta)


@pytest.fixture
def grid_renders(monkeypatch):
    """The names of the players whose grid.html was rendered through the template engine."""
    _clear_caches()
    rendered = []
    real = rendering.render_to_string

    def counting(template, context=None, *args, **kwargs):
        if template == "games/partials/grid.html":
            rendered.append(context["p"]["name"])
        return real(template, context, *args, **kwargs)

    monkeypatch.setattr(rendering, "render_to_string", counting)
    yield rendered
    _clear_caches()


@pytest.fixture
def grids_built(monkeypatch):
    """The names of the players whose cards were put together into a grid."""
    built = []
    real = rendering.cells_of

    def counting(seat, name, grid, **kwargs):
        built.append(name)
        return real(seat, name, grid, **kwargs)

    monkeypatch.setattr(rendering, "cells_of", counting)
    return built


def test_a_move_rebuilds_only_the_grid_it_changed(grid_renders, grids_built):
    game = engine.Game(["ann", "ben", "cas", "dot"], engine.Rules(), seed=5)
    for _ in range(8):  # everyone reveals two cards
        _step(game)
    rendering.board_html(engine.view_of(game, None), _meta(8))
    assert sorted(grids_built) == sorted(grid_renders) == ["ann", "ben", "cas", "dot"]
    grid_renders.clear()
    grids_built.clear()
    mover = game.players[game.to_act()[0]]
    _step(game)  # a draw: no grid changes
    _step(game)  # its placement: the mover's grid changes
    rendering.board_html(engine.view_of(game, None), _meta(10))
    assert grids_built == [mover]
    assert grid_renders == []  # the shell around the mover's cards was rendered before


def test_a_cached_grid_is_the_grid_rendered_afresh(grid_renders):
    game = engine.Game(["ann", "ben"], engine.Rules(), seed=9)
    for _ in range(6):
        _step(game)
    view = engine.view_of(game, None)
    with translation.override("de"):
        first = rendering.board_html(view, _meta(6))
        again = rendering.board_html(view, _meta(6))
        _clear_caches()
        fresh = rendering.board_html(view, _meta(6))
    assert first == again == fresh
    assert 'id="cell-1-11"' in fresh


def test_grids_are_cached_per_language(grid_renders):
    game = engine.Game(["ann", "ben"], engine.Rules(), seed=9)
    for _ in range(4):
        _step(game)
    view = engine.view_of(game, None)
    with translation.override("en"):
        english = rendering.board_html(view, _meta(4))
    with translation.override("de"):
        german = rendering.board_html(view, _meta(4))
    assert len(grid_renders) == 4
    assert "face down" in english and "face down" not in german


def test_the_grid_a_mark_leaves_is_not_rendered_again(grid_renders):
    game = engine.Game(["ann", "ben"], engine.Rules(), seed=9)
    grid = engine.view_of(game, None).grids[0]
    marked = rendering.grid_html(0, "ann", grid, changed=5)
    plain = rendering.grid_html(0, "ann", grid)
    assert grid_renders == ["ann"]  # one render serves the grid with and without its mark
    assert marked.count("just-changed") == 1
    assert 'class="cell just-changed" id="cell-0-5"' in marked
    assert marked.replace(" just-changed", "") == plain and "just-changed" not in plain


def test_cached_controls_are_the_controls_rendered_afresh():
    """Every seat's controls through a whole game, in two languages: from the cache (which
    most of them come from) exactly what the template renders from scratch."""
    rendering._controls.clear()
    game = engine.Game(["ann", "ben", "cas"], engine.Rules(end_score=40), seed=3)
    rng = random.Random(3)
    steps = hits = 0
    while not game.finished and steps < 400:
        steps += 1
        meta = {**_meta(steps), "ready": [1] if game.phase == engine.ROUND_OVER else []}
        for language in ("en", "de"):
            with translation.override(language):
                for seat in (None, 0, 1, 2):
                    view = engine.view_of(game, seat)
                    before = len(rendering._controls)
                    cached = rendering.controls_html(view, meta)
                    hits += len(rendering._controls) == before
                    fresh = render_to_string(
                        "games/partials/controls.html", rendering.controls_context(view, meta)
                    )
                    assert cached == fresh, (language, seat, steps)
        if game.phase == engine.ROUND_OVER:
            deck = engine.full_deck()
            rng.shuffle(deck)
            game.next_round(deck)
            continue
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert game.finished and hits > steps  # most came from the cache


def test_a_board_from_the_caches_is_the_board_rendered_afresh(monkeypatch):
    """Through a whole game, rounds' ends and the game's end included, in two languages: the
    board from the caches is the board rendered with empty caches; and a step renders at most
    three new shells of players' places (the mover's, the next player's, one turning away)."""
    game = engine.Game(["ann", "ben", "cas"], engine.Rules(end_score=60), seed=4)
    rng = random.Random(4)
    _clear_caches()
    version, recent, marked, boards, shells = 0, [], 0, 0, 0
    while game.phase != engine.GAME_OVER:
        assert version < 2000, "the game should have ended"
        if game.phase == engine.ROUND_OVER:
            deck = engine.full_deck()
            game.rng.shuffle(deck)
            game.next_round(deck)
        else:
            seat = game.to_act()[0]
            facts = engine.apply_described(game, seat, rng.choice(game.legal_actions(seat)))
            recent = movelog.push(recent, facts, version + 1)
        version += 1
        view = engine.view_of(game, None)
        away = [1] if version % 5 else []
        meta = {**_meta(version), "ready": [version % 3], "away": away, "recent": recent}
        for language in ("en", "de"):
            with translation.override(language):
                before = len(rendering._place_shells)
                cached = rendering.board_html(view, meta)
                new = len(rendering._place_shells) - before
                assert new <= 3
                assert _board_afresh(view, meta, monkeypatch) == cached
                boards, shells = boards + 1, shells + new
                marked += "just-changed" in cached
    assert version > 20 and marked > 20
    assert shells < boards / 3  # most places' shells were rendered on an earlier step
