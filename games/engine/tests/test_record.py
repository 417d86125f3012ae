"""Writing, reading and replaying the game record, and its errors."""

import copy
import json

import pytest

from games.engine import (
    FORMAT,
    RecordError,
    Rules,
    draw,
    from_record,
    replay_summary,
    reveal,
    to_record,
    view_of,
)

from .grids import A10, B24, C10, HUNDRED
from .helpers import flip_next, flip_to_round_end, make_deck, new_game, turn


def played(rules=None):
    """Round 1 of three players played to its end, and round 2 begun (two turns in)."""
    game = new_game(
        3,
        grids={0: A10, 1: B24, 2: C10},
        reveals=[(0, 1)] * 3,
        rules=rules or Rules(end_score=500),
    )
    flip_to_round_end(game)
    game.next_round(make_deck(3, grids={0: A10, 1: B24, 2: C10}))
    for seat in range(3):
        game.apply(seat, reveal(4))
        game.apply(seat, reveal(5))
    flip_next(game)
    flip_next(game)
    return game


def same(a, b):
    assert to_record(a) == to_record(b)
    for seat in [None, *range(a.n)]:
        assert view_of(a, seat) == view_of(b, seat)
    assert (a.draw_pile, a.discard, a.cards, a.up, a.drawn) == (
        b.draw_pile,
        b.discard,
        b.cards,
        b.up,
        b.drawn,
    )


class TestWrite:
    def test_the_record_has_the_documented_shape(self):
        record = to_record(played())
        assert list(record) == ["format", "players", "rules", "rounds"]
        assert record["format"] == FORMAT == "skyjo-record/1"
        assert record["players"] == ["p0", "p1", "p2"]
        assert record["rules"] == {
            "end_score": 500,
            "double_on_tie": True,
            "final_reveal_clears_columns": True,
        }
        first, second = record["rounds"]
        assert first["reveals"] == [[0, 1]] * 3 and second["reveals"] == [[4, 5]] * 3
        assert first["actions"][:2] == [{"take": "deck", "flip": 2}, {"take": "deck", "flip": 2}]
        assert len(first["actions"]) == 30 and len(second["actions"]) == 2
        assert "reshuffles" not in first
        json.dumps(record)

    def test_a_pending_draw_is_written_as_a_bare_take_deck(self):
        game = played()
        game.apply(game.current, draw())
        assert to_record(game)["rounds"][-1]["actions"][-1] == {"take": "deck"}


class TestReplay:
    def test_replaying_a_record_gives_the_same_game(self):
        game = played()
        same(from_record(json.loads(json.dumps(to_record(game)))), game)

    def test_replaying_a_record_with_a_pending_draw(self):
        game = played()
        game.apply(game.current, draw())
        again = from_record(to_record(game))
        same(again, game)
        assert view_of(again, again.current).drawn == game.drawn

    def test_a_record_may_stop_between_rounds(self):
        game = new_game(3, grids={0: A10, 1: B24, 2: C10}, reveals=[(0, 1)] * 3)
        flip_to_round_end(game)
        again = from_record(to_record(game))
        assert again.phase == "round_over" and again.totals == [20, 24, 10]

    def test_a_record_may_stop_in_the_reveal_phase(self):
        game = new_game(3)
        game.apply(1, reveal(3))
        record = to_record(game)
        assert record["rounds"][0]["reveals"] == [[], [3], []]
        record["rounds"][0]["reveals"][0] = None
        again = from_record(record)
        assert again.phase == "reveal" and again.up[1][3] and again.current is None

    def test_missing_rules_and_format_take_the_defaults(self):
        record = to_record(new_game(2))
        del record["rules"], record["format"]
        assert from_record(record).rules == Rules()
        record["rules"] = {"double_on_tie": False}
        assert from_record(record).rules == Rules(double_on_tie=False)

    def test_every_move_replays_one_by_one(self):
        game = played()
        record = to_record(game)
        rnd = record["rounds"][0]
        for k in range(len(rnd["actions"]) + 1):
            partial = copy.deepcopy(record)
            partial["rounds"] = [dict(rnd, actions=rnd["actions"][:k])]
            assert len(from_record(partial).log.actions) == k

    def test_a_given_reshuffle_order_is_used(self):
        game = new_game(2, grids={0: A10, 1: B24}, reveals=[(0, 1)] * 2)
        while not game.log.reshuffles:
            turn(game, {"take": "deck", "swap": 0})
        record = to_record(game)
        order = record["rounds"][0]["reshuffles"][0]
        record["rounds"][0]["reshuffles"][0] = order[::-1]
        again = from_record(record)
        assert again.draw_pile == order  # reversed order: the top is the list's first card
        del record["rounds"][0]["reshuffles"]
        assert len(from_record(record, seed=3).log.reshuffles) == 1  # the engine's own shuffle

    def test_the_summary_of_a_finished_game(self):
        game = new_game(2, grids={0: A10, 1: HUNDRED}, reveals=[(0, 1), (8, 9)])
        flip_to_round_end(game)
        assert replay_summary(from_record(to_record(game))) == {
            "rounds": [{"starter": 0, "ender": 0, "raw": [10, 100], "scores": [10, 100]}],
            "totals": [10, 100],
            "finished": True,
            "winners": [0],
        }


def broken(change):
    record = to_record(played())
    change(record)
    with pytest.raises(RecordError) as info:
        from_record(record)
    return str(info.value)


class TestBadRecords:
    def test_it_rejects_a_record_that_is_not_an_object(self):
        for data in ([], "x", None, 3):
            with pytest.raises(RecordError, match="JSON object"):
                from_record(data)

    def test_it_names_the_round_and_the_action_index(self):
        def flip_face_up(r):
            r["rounds"][1]["actions"][1] = {"take": "deck", "flip": 4}

        message = broken(flip_face_up)
        assert message.startswith("round 2 (rounds[1]), action 1: ")
        assert "already face up" in message

    @pytest.mark.parametrize(
        "action,words",
        [
            ({"take": "discard", "flip": 3}, "must be swapped"),
            ({"take": "deck", "swap": 12}, "off the grid"),
            ({"take": "deck", "swap": "3"}, "off the grid"),
            ({"take": "pile", "swap": 3}, "unknown action"),
            ({"take": "deck"}, "must be placed"),
            ([], "must be an object"),
        ],
    )
    def test_it_rejects_a_bad_action(self, action, words):
        def change(r):
            r["rounds"][0]["actions"][3] = action

        message = broken(change)
        assert message.startswith("round 1 (rounds[0]), action 3: ") and words in message

    def test_it_rejects_swapping_into_a_removed_position(self):
        game = new_game(
            2,
            grids={0: {1: 12, 5: 12, 9: 4}, 1: {0: 0, 1: 0}},
            discard=12,
            reveals=[(1, 5), (0, 1)],
        )
        turn(game, {"take": "discard", "swap": 9})
        record = to_record(game)
        record["rounds"][0]["actions"] += [{"take": "deck", "flip": 3}, {"take": "deck", "swap": 5}]
        with pytest.raises(RecordError, match=r"action 2: .*removed"):
            from_record(record)

    def test_it_rejects_acting_after_the_game_ended(self):
        game = new_game(2, grids={0: A10, 1: HUNDRED}, reveals=[(0, 1), (8, 9)])
        flip_to_round_end(game)
        record = to_record(game)
        n = len(record["rounds"][0]["actions"])
        record["rounds"][0]["actions"].append({"take": "deck", "flip": 0})
        with pytest.raises(RecordError, match=rf"action {n}: the game is over"):
            from_record(record)
        record["rounds"][0]["actions"].pop()
        record["rounds"].append(copy.deepcopy(record["rounds"][0]))
        with pytest.raises(RecordError, match=r"round 2 \(rounds\[1\]\): the game already ended"):
            from_record(record)

    def test_it_rejects_acting_after_the_round_ended(self):
        def change(r):
            r["rounds"][0]["actions"].append({"take": "deck", "flip": 0})

        assert "action 30: the round is over" in broken(change)

    def test_it_rejects_an_unfinished_round_before_another(self):
        def change(r):
            r["rounds"][0]["actions"].pop()

        assert "unfinished" in broken(change)

    @pytest.mark.parametrize(
        "change,words",
        [
            (lambda r: r["rounds"][0]["deck"].pop(), "150"),
            (lambda r: r["rounds"][1]["deck"].__setitem__(0, 13), "not the 150-card"),
            (lambda r: r["rounds"][0].__setitem__("deck", "x"), "deck must be"),
            (lambda r: r["rounds"][0]["reveals"].pop(), "one entry per player"),
            (lambda r: r["rounds"][0]["reveals"].__setitem__(0, [0, 0]), "already face up"),
            (lambda r: r["rounds"][0]["reveals"].__setitem__(0, [0, 12]), "off the grid"),
            (lambda r: r["rounds"][0]["reveals"].__setitem__(0, [0, 1, 2]), "pair"),
            (lambda r: r["rounds"][0]["reveals"].__setitem__(0, [0]), "two cards"),
            (lambda r: r["rounds"][1]["reveals"].__setitem__(0, [4]), "not complete"),
            (lambda r: r["rounds"][0].__setitem__("actions", {}), "must be a list"),
            (lambda r: r["rounds"][0].__setitem__("reshuffles", [[1, "x"]]), "reshuffles"),
            (lambda r: r["rounds"][0].__setitem__("extra", 1), "unknown key 'extra'"),
            (lambda r: r["rounds"].__setitem__(0, []), "a round must be an object"),
        ],
    )
    def test_it_names_the_round_of_a_bad_round(self, change, words):
        message = broken(change)
        assert message.startswith("round ") and words in message

    def test_it_rejects_an_unused_reshuffle(self):
        def change(r):
            r["rounds"][1]["reshuffles"] = [[1, 2, 3]]

        assert broken(change) == (
            "round 2 (rounds[1]), reshuffles[0]: unused, the draw pile ran out only 0 time(s)"
        )

    def test_it_rejects_a_reshuffle_that_is_not_the_discard_pile(self):
        game = new_game(2, grids={0: A10, 1: B24}, reveals=[(0, 1)] * 2)
        while not game.log.reshuffles:
            turn(game, {"take": "deck", "swap": 0})
        record = to_record(game)
        record["rounds"][0]["reshuffles"][0][0] += 1
        with pytest.raises(RecordError, match=r"round 1 \(rounds\[0\]\), action \d+: reshuffles"):
            from_record(record)

    @pytest.mark.parametrize(
        "change,words",
        [
            (lambda r: r.__setitem__("format", "skyjo/2"), "unsupported format"),
            (lambda r: r.__setitem__("players", ["a"]), "2 to 8"),
            (lambda r: r.__setitem__("players", ["a"] * 9), "2 to 8"),
            (lambda r: r.__setitem__("players", ["a", 3]), "names"),
            (lambda r: r.__setitem__("rules", {"end_score": 0}), "end_score"),
            (lambda r: r.__setitem__("rules", {"end_score": True}), "end_score"),
            (lambda r: r.__setitem__("rules", {"double_on_tie": 1}), "double_on_tie"),
            (lambda r: r.__setitem__("rules", {"speed": 1}), "unknown rule"),
            (lambda r: r.__setitem__("rules", []), "rules must be"),
            (lambda r: r.__setitem__("rules", None), "rules must be"),
            (lambda r: r.__setitem__("format", None), "unsupported format"),
            (lambda r: r.__setitem__("rounds", []), "rounds"),
            (lambda r: r.__setitem__("moves", []), "unknown key"),
        ],
    )
    def test_it_rejects_a_bad_header(self, change, words):
        assert words in broken(change)
