"""The engine against a second Skyjo written from rules.md alone (reference.py): whole games
with 2 to 8 players and every rule option agree on starters, enders, raw and doubled scores,
totals and the game's end; and a record changed in any one place replays or is refused with a
RecordError, never anything else."""

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    FLIP,
    SWAP,
    TAKE_DISCARD,
    Game,
    RecordError,
    Rules,
    from_record,
    full_deck,
    to_record,
    to_snapshot,
)

from . import reference
from .helpers import play_randomly


def clumped_deck(rng: random.Random) -> list[int]:
    """A full deck shuffled in blocks of five, so that equal cards come together."""
    deck = full_deck()
    blocks = [deck[i : i + 5] for i in range(0, len(deck), 5)]
    rng.shuffle(blocks)
    return [card for block in blocks for card in block]


def completes_a_column(game: Game, seat: int, action) -> bool:
    if action.kind not in (TAKE_DISCARD, SWAP):
        return False
    card = game.discard[-1] if action.kind == TAKE_DISCARD else game.drawn
    others = [
        p for p in (action.pos % 4, action.pos % 4 + 4, action.pos % 4 + 8) if p != action.pos
    ]
    return all(game.up[seat][p] and game.cards[seat][p] == card for p in others)


def play_a_whole_game(seed: int) -> Game:
    """Decks and a player that make many columns of three equal cards (also in the final turns
    and the final reveal), with random rules and 2 to 8 players."""
    rng = random.Random(seed)
    rules = Rules(
        end_score=rng.choice([1, 30, 100]),
        double_on_tie=rng.random() < 0.5,
        final_reveal_clears_columns=rng.random() < 0.5,
    )
    players = [f"p{i}" for i in range(rng.randint(2, 8))]
    game = Game(players, rules, deck=clumped_deck(rng), seed=seed)
    while not game.finished:
        if game.phase == "round_over":
            game.next_round(clumped_deck(rng))
            continue
        seat = rng.choice(game.to_act())
        legal = game.legal_actions(seat)
        columns = [a for a in legal if completes_a_column(game, seat, a)]
        game.apply(
            seat, rng.choice(columns) if columns and rng.random() < 0.9 else rng.choice(legal)
        )
    return game


def keeps_cards_face_down(game: Game, seat: int, action) -> bool:
    """A step that turns no face-down card: rounds last and the draw pile runs out."""
    if action.kind in (SWAP, TAKE_DISCARD):
        return game.up[seat][action.pos]
    return action.kind != FLIP


def play_a_long_game(seed: int) -> Game:
    """Players who mostly swap into face-up cards, so that rounds run the draw pile out (the
    column-seeking games above almost never do), with random rules and 2 to 8 players."""
    rng = random.Random(seed)
    rules = Rules(
        end_score=rng.choice([1, 30, 100]),
        double_on_tie=rng.random() < 0.5,
        final_reveal_clears_columns=rng.random() < 0.5,
    )
    game = Game([f"p{i}" for i in range(rng.randint(2, 8))], rules, seed=seed)
    while not game.finished:
        if game.phase == "round_over":
            game.next_round()
            continue
        seat = rng.choice(game.to_act())
        legal = game.legal_actions(seat)
        stalling = [a for a in legal if keeps_cards_face_down(game, seat, a)]
        game.apply(seat, rng.choice(stalling if stalling and rng.random() < 0.95 else legal))
    return game


def reshuffles(record: dict) -> int:
    return sum(len(r.get("reshuffles", [])) for r in record["rounds"])


def assert_scored_as_the_reference_scores_it(game: Game) -> None:
    record = json.loads(json.dumps(to_record(game)))
    totals, results, where = reference.replay(record)
    assert where == "over"
    assert results == [(r.starter, r.ender, r.raw, r.scores) for r in game.results]
    assert totals == game.totals
    again = from_record(record, seed=1)
    assert to_record(again) == record and to_snapshot(again) == to_snapshot(game)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_whole_games_score_as_the_reference_scores_them(seed):
    assert_scored_as_the_reference_scores_it(play_a_whole_game(seed))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_games_that_run_the_draw_pile_out_score_as_the_reference_scores_them(seed):
    assert_scored_as_the_reference_scores_it(play_a_long_game(seed))


def test_long_games_do_run_the_draw_pile_out():
    records = [to_record(play_a_long_game(seed)) for seed in range(20)]
    assert sum(reshuffles(r) > 0 for r in records) >= 15


def test_a_record_changed_in_one_place_replays_or_is_refused_with_a_record_error():
    values = [None, 0, -1, 12, 13, 1.5, True, "x", "", [], {}, [0], {"a": 1}, "deck", 2**70]
    outcomes = Counter()
    for seed in range(60):
        rng = random.Random(seed)
        game = Game(["a", "b", "c"][: rng.randint(2, 3)], Rules(end_score=30), seed=seed)
        play_randomly(game, rng, rng.randint(0, 400))
        record = to_record(game)
        for _ in range(150):
            changed = json.loads(json.dumps(record))
            node, path = changed, []
            while isinstance(node, dict | list) and node and rng.random() < 0.8:
                key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
                path.append((node, key))
                node = node[key]
            if not path:
                continue
            parent, key = path[-1]
            parent[key] = rng.choice(values)
            try:
                from_record(changed, seed=0)
            except RecordError:
                outcomes["refused"] += 1
            else:
                outcomes["replayed"] += 1
    # Anything but a RecordError failed the test above; both ways were taken, often.
    assert outcomes["refused"] > 1000 and outcomes["replayed"] > 100, outcomes
