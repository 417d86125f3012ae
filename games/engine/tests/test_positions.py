"""Walking a record step by step (``iter_positions``): one spectator position per step."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    DEAL,
    HIDDEN,
    Game,
    RecordError,
    Rules,
    draw,
    flip,
    from_record,
    iter_positions,
    position_at,
    reveal,
    swap,
    take_discard,
    to_record,
    view_of,
)

from .helpers import flip_to_round_end, new_game, play_randomly


def random_game(players: int, seed: int, end_score: int = 100, stop: int | None = None) -> Game:
    """A game of random legal steps (a deal counts as one), stopped after ``stop`` steps."""
    game = Game([f"p{i}" for i in range(players)], Rules(end_score=end_score), seed=seed)
    return play_randomly(game, random.Random(seed), 100_000 if stop is None else stop)


def step_count(record: dict) -> int:
    """Deals, reveals and steps of a record: a drawn card placed is two steps."""
    count = 0
    for rnd in record["rounds"]:
        count += 1 + sum(len(pair or []) for pair in rnd["reveals"])
        count += sum(1 if a["take"] == "discard" or len(a) == 1 else 2 for a in rnd["actions"])
    return count


def replayed_views(record: dict) -> list:
    """The spectator view after each step, from a replay written here independently."""
    game, views = None, []
    for rnd in record["rounds"]:
        if game is None:
            game = Game(record["players"], Rules.from_json(record["rules"]), deck=rnd["deck"])
        else:
            game.next_round(rnd["deck"])
        game.forced_reshuffles = [list(r) for r in rnd.get("reshuffles", [])]
        views.append(view_of(game))
        for seat, pair in enumerate(rnd["reveals"]):
            for pos in pair or []:
                game.apply(seat, reveal(pos))
                views.append(view_of(game))
        for action in rnd["actions"]:
            seat = game.current
            if action["take"] == "discard":
                steps = [take_discard(action["swap"])]
            else:
                steps = [draw()]
                if "swap" in action:
                    steps.append(swap(action["swap"]))
                elif "flip" in action:
                    steps.append(flip(action["flip"]))
            for step in steps:
                game.apply(seat, step)
                views.append(view_of(game))
    return views


class TestWalk:
    @pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (8, 5)])
    def test_one_position_per_step_and_the_last_is_the_replayed_game(self, players, seed):
        record = to_record(random_game(players, seed, end_score=60))
        positions = list(iter_positions(record))
        assert len(positions) == step_count(record)
        assert [p.step for p in positions] == list(range(len(positions)))
        assert positions[-1].view == view_of(from_record(record))
        assert positions[-1].view.phase == "game_over"

    @pytest.mark.parametrize("seed", [6, 7, 8])
    def test_each_position_is_the_spectator_view_after_its_step(self, seed):
        record = to_record(random_game(3, seed, end_score=60))
        positions = list(iter_positions(record))
        assert [p.view for p in positions] == replayed_views(record)

    @pytest.mark.parametrize("stop", [0, 3, 6, 7, 40, 41])
    def test_a_record_that_stops_anywhere(self, stop):
        game = random_game(2, 9, stop=stop)
        record = to_record(game)
        positions = list(iter_positions(record))
        assert len(positions) == step_count(record) == stop + 1
        assert positions[-1].view == view_of(game)

    def test_each_round_starts_with_its_deal(self):
        record = to_record(random_game(2, 10, end_score=150))
        deals = [p for p in iter_positions(record) if p.kind == DEAL]
        assert [p.round for p in deals] == list(range(1, len(record["rounds"]) + 1))
        assert len(deals) >= 2
        for p in deals:
            assert p.seat is None and p.action is None
            assert p.view.phase == "reveal"
            assert all(c == HIDDEN for grid in p.view.grids for c in grid)


class TestHiddenInformation:
    @pytest.mark.parametrize("seed", [11, 12])
    def test_no_position_shows_a_face_down_value_or_the_drawn_card(self, seed):
        game = random_game(4, seed, end_score=60)
        record = to_record(game)
        replay = Game(record["players"], game.rules, deck=record["rounds"][0]["deck"])
        for position in iter_positions(record):
            view = position.view
            assert view.seat is None and view.drawn is None
            if position.kind == DEAL and position.round > 1:
                replay.next_round(record["rounds"][position.round - 1]["deck"])
                replay.forced_reshuffles = list(
                    record["rounds"][position.round - 1].get("reshuffles", [])
                )
            elif position.kind != DEAL:
                replay.apply(position.seat, position.action)
            for seat in range(replay.n):
                for pos in range(12):
                    shown = view.grids[seat][pos]
                    if not replay.up[seat][pos]:
                        assert shown == HIDDEN
                    else:
                        assert shown == replay.cards[seat][pos]

    def test_a_pending_draw_is_told_without_its_value(self):
        game = new_game(
            2, grids={0: {0: 9, 1: 9}, 1: {0: 1, 1: 1}}, draws=[12], reveals=[(0, 1)] * 2
        )
        game.apply(0, draw())
        last = list(iter_positions(to_record(game)))[-1]
        assert last.text == "p0 draws from the pile"
        assert last.view.drawing and last.view.drawn is None
        assert "12" not in last.label


class TestLabels:
    def test_reveals_turns_and_a_removed_column(self):
        grids = {0: {0: 5, 4: 5, 8: 9, 1: 6}, 1: {0: 1, 1: 2, 2: 11}}
        game = new_game(2, grids=grids, discard=5, draws=[7, 3])
        for seat, pair in enumerate([(0, 4), (0, 1)]):
            for pos in pair:
                game.apply(seat, reveal(pos))
        game.apply(0, take_discard(8))
        game.apply(1, draw())
        game.apply(1, swap(2))
        game.apply(0, draw())
        game.apply(0, flip(1))
        labels = [p.label for p in iter_positions(to_record(game))]
        assert labels == [
            "Round 1 · the cards are dealt",
            "Round 1 · p0 turns position 0: 5",
            "Round 1 · p0 turns position 4: 5",
            "Round 1 · p1 turns position 0: 1",
            "Round 1 · p1 turns position 1: 2 · p0 starts",
            "Round 1 · p0 takes the discard 5 and swaps position 8, discarding 9"
            " · column 1 of three 5s removed",
            "Round 1 · p1 draws from the pile",
            "Round 1 · p1 swaps the drawn 7 into position 2, discarding 11",
            "Round 1 · p0 draws from the pile",
            "Round 1 · p0 discards the drawn 3 and turns position 1: 6",
        ]

    def test_last_turns_round_over_and_game_over(self):
        game = new_game(2, reveals=[(0, 1)] * 2, rules=Rules(end_score=1))
        flip_to_round_end(game)
        texts = [p.text for p in iter_positions(to_record(game))]
        ender = game.players[game.results[-1].ender]
        assert sum(t.endswith(f"{ender} has turned every card: last turns") for t in texts) == 1
        result = game.results[-1]
        assert "round over: " in texts[-1] and "game over: " in texts[-1]
        for name, raw, score in zip(game.players, result.raw, result.scores, strict=True):
            assert (f"{name} {raw} × 2 = {score}" if raw != score else f"{name} {score}") in texts[
                -1
            ]
        assert texts[-1].endswith(" wins") or texts[-1].endswith(" win")

    def test_a_bad_record_raises_record_error(self):
        record = to_record(random_game(2, 13, stop=10))
        record["rounds"][0]["actions"][0] = {"take": "discard", "flip": 3}
        with pytest.raises(RecordError, match=r"round 1 \(rounds\[0\]\), action 0"):
            list(iter_positions(record))


class TestPositionAt:
    """``position_at(record, n)``: the position ``iter_positions`` yields at ``n``, alone."""

    @given(
        players=st.integers(min_value=2, max_value=8),
        seed=st.integers(min_value=0, max_value=10_000),
        stop=st.integers(min_value=0, max_value=400),
        data=st.data(),
    )
    @settings(max_examples=40, deadline=None)
    def test_is_the_walks_position_at_that_step(self, players, seed, stop, data):
        record = to_record(random_game(players, seed, end_score=60, stop=stop))
        positions = list(iter_positions(record))
        step = data.draw(st.integers(min_value=0, max_value=len(positions) - 1))
        assert position_at(record, step) == positions[step]

    def test_every_step_of_a_whole_game_with_its_texts(self):
        record = to_record(random_game(3, 14, end_score=60))
        positions = list(iter_positions(record))
        assert [position_at(record, n) for n in range(len(positions))] == positions
        assert "game over: " in position_at(record, len(positions) - 1).text

    def test_a_step_past_the_last_or_before_the_first_is_an_index_error(self):
        record = to_record(random_game(2, 15, stop=10))
        with pytest.raises(IndexError, match="past the last"):
            position_at(record, 11)
        with pytest.raises(IndexError, match="before the first"):
            position_at(record, -1)

    def test_a_bad_record_raises_record_error_before_the_step_asked_for(self):
        record = to_record(random_game(2, 13, stop=10))
        record["rounds"][0]["actions"][0] = {"take": "discard", "flip": 3}
        with pytest.raises(RecordError, match=r"round 1 \(rounds\[0\]\), action 0"):
            position_at(record, 10)
