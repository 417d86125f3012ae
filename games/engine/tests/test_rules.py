"""The per-game options of rules.md (``Rules``) and the players: defaults, bounds, and that a
game accepts exactly what its own record can hold."""

import random

import pytest

from games.engine import Game, RecordError, Rules, from_record, to_record

from .helpers import play_randomly


class TestDefaults:
    def test_the_defaults_are_those_of_rules_md(self):
        assert Rules().to_json() == {
            "end_score": 100,
            "double_on_tie": True,
            "final_reveal_clears_columns": True,
        }

    def test_missing_keys_of_a_record_take_the_defaults(self):
        assert Rules.from_json({}) == Rules()
        assert Rules.from_json({"end_score": 50}) == Rules(end_score=50)

    def test_null_rules_are_refused_as_a_null_format_is(self):
        with pytest.raises(RecordError, match="rules must be an object"):
            Rules.from_json(None)


BAD_RULES = [
    {"end_score": 0},
    {"end_score": -100},
    {"end_score": "100"},
    {"end_score": 100.0},
    {"end_score": True},
    {"end_score": None},
    {"double_on_tie": "no"},
    {"double_on_tie": 0},
    {"double_on_tie": None},
    {"final_reveal_clears_columns": "false"},
    {"final_reveal_clears_columns": 1},
]


class TestBounds:
    @pytest.mark.parametrize("options", BAD_RULES)
    def test_a_record_refuses_an_option_out_of_bounds(self, options):
        with pytest.raises(RecordError, match=f"rules.{next(iter(options))}"):
            Rules.from_json(options)

    @pytest.mark.parametrize("options", BAD_RULES)
    def test_it_refuses_to_build_rules_that_a_record_could_not_hold(self, options):
        # Rules(double_on_tie="no") would double on a tie, and Rules(end_score="100") would
        # raise TypeError in the middle of the step that scores round 1.
        with pytest.raises(ValueError, match=f"rules.{next(iter(options))}"):
            Rules(**options)

    @pytest.mark.parametrize("end_score", [1, 100, 10**6])
    def test_any_positive_end_score_is_played(self, end_score):
        assert Rules.from_json({"end_score": end_score}) == Rules(end_score=end_score)

    @pytest.mark.parametrize("players", [["ann", ""], ["ann", 7], ["ann", None], "ab"])
    def test_it_refuses_players_that_a_record_could_not_hold(self, players):
        with pytest.raises(ValueError, match="names"):
            Game(players)

    @pytest.mark.parametrize("seed", range(5))
    def test_every_game_it_accepts_writes_a_record_that_replays(self, seed):
        rng = random.Random(seed)
        rules = Rules(
            end_score=rng.choice([1, 30, 100]),
            double_on_tie=rng.random() < 0.5,
            final_reveal_clears_columns=rng.random() < 0.5,
        )
        game = play_randomly(Game(["ann", "ann", "b c"], rules, seed=seed), rng, 10**6)
        assert to_record(from_record(to_record(game))) == to_record(game)
