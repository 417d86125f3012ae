"""Snapshots: any reachable state restores to an equal game that plays the same (hypothesis)."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    EngineError,
    Game,
    Rules,
    from_record,
    from_snapshot,
    reveal,
    to_record,
    to_snapshot,
    view_of,
)
from games.engine.actions import DRAW, FLIP, REVEAL, SWAP, TAKE_DISCARD, Action
from games.engine.tests.helpers import play_randomly

PROFILE = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.integers(min_value=2, max_value=8)
rules = st.builds(
    Rules,
    end_score=st.sampled_from([1, 30, 100]),
    double_on_tie=st.booleans(),
    final_reveal_clears_columns=st.booleans(),
)
EVERY_STEP = [Action(k, p) for k in (REVEAL, TAKE_DISCARD, SWAP, FLIP) for p in range(12)]
EVERY_STEP.append(Action(DRAW))


def state(game: Game) -> tuple:
    """Everything that decides how a game goes on, its history and random source aside."""
    return (
        game.players,
        game.rules,
        game.round,
        game.phase,
        game.cards,
        game.up,
        game.hidden,
        game.draw_pile,
        game.discard,
        game.drawn,
        game.current,
        game.starter,
        game.ender,
        game.totals,
        game.results,
        game.reveals,
        game.turns,
    )


def played(seed: int, n: int, game_rules: Rules, stop: int) -> Game:
    """``stop`` random legal steps (a new deal counts as one) from a seeded start."""
    game = Game([f"p{i}" for i in range(n)], game_rules, seed=seed)
    return play_randomly(game, random.Random(seed), stop)


def through_json(game: Game) -> Game:
    return from_snapshot(json.loads(json.dumps(to_snapshot(game))), seed=0)


def outcome(game: Game, seat: int, step: Action):
    """What one step does to a copy of ``game`` (with a fixed random source): the new state,
    or the error it raises."""
    trial = game.copy()
    trial.rng.seed(5)
    try:
        trial.apply(seat, step)
    except EngineError as exc:
        return type(exc), str(exc), state(trial)
    return state(trial), trial.last_reshuffle


@PROFILE
@given(seeds, players, rules, st.integers(min_value=0, max_value=1500))
def test_a_snapshot_restores_an_equal_game(seed, n, game_rules, stop):
    game = played(seed, n, game_rules, stop)
    restored = through_json(game)
    assert state(restored) == state(game)
    for seat in [None, *range(n)]:
        assert view_of(restored, seat) == view_of(game, seat)
    assert restored.to_act() == game.to_act()
    assert restored.logs is None
    assert game.turns == len(game.log.actions)


@PROFILE
@given(seeds, players, rules, st.integers(min_value=0, max_value=1500))
def test_a_restored_game_answers_every_step_as_the_original(seed, n, game_rules, stop):
    game = played(seed, n, game_rules, stop)
    restored = through_json(game)
    for seat in range(n):
        assert restored.legal_actions(seat) == game.legal_actions(seat)
        for step in EVERY_STEP:
            assert outcome(restored, seat, step) == outcome(game, seat, step)
    if game.phase == "round_over":
        a, b = game.copy(), restored.copy()
        a.rng.seed(9)
        b.rng.seed(9)
        a.next_round()
        b.next_round()
        assert state(a) == state(b)


@PROFILE
@given(seeds, players, rules)
def test_playing_on_from_snapshots_ends_as_playing_straight_through(seed, n, game_rules):
    """A game restored from its snapshot before every step (as the server does) and a game
    kept in memory, fed the same steps and the same reshuffles, end in the same state."""
    rng = random.Random(seed)
    kept = Game([f"p{i}" for i in range(n)], game_rules, seed=seed)
    snapshot = to_snapshot(kept)
    for _ in range(20_000):
        if kept.finished:
            break
        restored = from_snapshot(snapshot)
        if kept.phase == "round_over":
            kept.next_round()
            restored.next_round(kept.log.deck)
        else:
            seat = rng.choice(kept.to_act())
            step = rng.choice(kept.legal_actions(seat))
            kept.apply(seat, step)
            if kept.last_reshuffle is not None:
                restored.forced_reshuffles = [kept.last_reshuffle]
            restored.apply(seat, step)
            assert restored.last_reshuffle == kept.last_reshuffle
        assert state(restored) == state(kept)
        snapshot = json.loads(json.dumps(to_snapshot(restored)))
    assert kept.finished
    assert state(from_record(to_record(kept))) == state(from_snapshot(snapshot))


def test_a_restored_game_gets_a_fresh_random_source():
    game = Game(["ann", "ben"], seed=3)
    one, two = from_snapshot(to_snapshot(game)), from_snapshot(to_snapshot(game))
    assert one.rng.getstate() != two.rng.getstate() != game.rng.getstate()


def test_the_snapshot_is_small_plain_data():
    game = Game(["ann", "ben", "cy", "di"], seed=3)
    for seat in range(4):
        game.apply(seat, reveal(seat))
    data = to_snapshot(game)
    assert json.loads(json.dumps(data)) == data
    assert data["up"][2] == 1 << 2 and data["reveals"][3] == [3]
    assert "logs" not in data and "deck" not in data


def test_a_restored_game_keeps_no_record():
    restored = from_snapshot(to_snapshot(Game(["ann", "ben"], seed=3)))
    with pytest.raises(ValueError, match="no record"):
        to_record(restored)


@pytest.mark.parametrize(
    "data",
    [
        None,
        {},
        {"format": "skyjo-snapshot/0"},
        [1, 2],
        {"format": "skyjo-snapshot/1"},  # the format alone: a KeyError before
        {"format": "skyjo-snapshot/1", "phase": "play"},
        {"format": "skyjo-snapshot/1", "phase": "play", "players": 3},  # a TypeError
    ],
)
def test_anything_else_is_refused(data):
    with pytest.raises(ValueError, match="snapshot"):
        from_snapshot(data)
