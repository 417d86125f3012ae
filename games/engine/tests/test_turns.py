"""Dealing, revealing, who starts, the three kinds of turn, columns and the reshuffle."""

from collections import Counter

import pytest

from games.engine import (
    DRAW,
    FLIP,
    REVEAL,
    SWAP,
    TAKE_DISCARD,
    Action,
    BadPosition,
    CardAlreadyFaceUp,
    DiscardMustBeSwapped,
    DrawnCardPending,
    EngineError,
    Game,
    IllegalAction,
    MalformedAction,
    NoFaceDownCard,
    NotAPlayer,
    NothingDrawn,
    NotYourTurn,
    PositionRemoved,
    RevealsDone,
    Rules,
    WrongPhase,
    draw,
    flip,
    from_record,
    full_deck,
    reveal,
    swap,
    take_discard,
    to_record,
    to_snapshot,
    view_of,
)

from .helpers import flip_to_round_end, make_deck, new_game, snapshot, turn

GRID0 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
GRID1 = [0, -1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]


def two_players(**kw):
    """Seat 0 reveals 11 and 12 (sum 23) and starts; seat 1 reveals 0 and -1."""
    kw.setdefault("grids", {0: GRID0, 1: GRID1})
    kw.setdefault("discard", 6)
    kw.setdefault("draws", [9, 4, 3])
    kw.setdefault("reveals", [(10, 11), (0, 1)])
    return new_game(2, **kw)


# rules.md, written out here rather than taken from the engine: -2 ×5, -1 ×10, 0 ×15, 1 … 12 ×10.
SKYJO_DECK = Counter({-2: 5, -1: 10, 0: 15, **{value: 10 for value in range(1, 13)}})


class TestDeal:
    def test_the_deck_is_the_150_cards_of_rules_md(self):
        assert sum(SKYJO_DECK.values()) == 150
        assert Counter(full_deck()) == SKYJO_DECK
        game = new_game(3, reveals=[(0, 1)] * 3, rules=Rules(end_score=1000))
        flip_to_round_end(game)
        game.next_round()
        assert [Counter(r["deck"]) for r in to_record(game)["rounds"]] == [SKYJO_DECK] * 2

    def test_it_accepts_exactly_the_150_card_deck(self):
        deck = full_deck()
        Game(["a", "b"], deck=deck)
        for wrong in (deck[1:], [*deck, 5], [12, *deck[1:]], [13 if v == 12 else v for v in deck]):
            with pytest.raises(ValueError, match="150 cards"):
                Game(["a", "b"], deck=wrong)

    def test_it_deals_twelve_cards_per_seat_in_deck_order(self):
        deck = make_deck(3)
        game = Game(["a", "b", "c"], deck=deck)
        for seat in range(3):
            assert game.cards[seat] == deck[12 * seat : 12 * seat + 12]
        assert game.discard == [deck[36]]
        assert len(game.draw_pile) == 150 - 37

    def test_the_draw_pile_is_dealt_top_first(self):
        game = two_players(draws=[9, 4, 3])
        turn(game, {"take": "deck", "swap": 10})
        assert game.cards[0][10] == 9
        turn(game, {"take": "deck", "swap": 0})
        assert game.cards[1][0] == 4

    def test_every_card_starts_face_down(self):
        game = new_game(4)
        assert all(not u for up in game.up for u in up)
        assert game.phase == "reveal" and game.current is None and game.round == 1

    @pytest.mark.parametrize("n", [1, 9])
    def test_it_rejects_a_wrong_number_of_players(self, n):
        with pytest.raises(ValueError, match="2 to 8"):
            Game([f"p{i}" for i in range(n)])

    def test_it_rejects_a_deck_that_is_not_the_skyjo_deck(self):
        deck = make_deck(2)
        deck[0] = 13
        with pytest.raises(ValueError, match="150 cards"):
            Game(["a", "b"], deck=deck)
        with pytest.raises(ValueError):
            Game(["a", "b"], deck=deck[:149])

    def test_the_same_seed_deals_the_same_game(self):
        a, b = Game(["a", "b"], seed=5), Game(["a", "b"], seed=5)
        assert a.log.deck == b.log.deck
        assert Game(["a", "b"], seed=6).log.deck != a.log.deck


class TestReveal:
    def test_everyone_reveals_at_once_and_nobody_is_current(self):
        game = new_game(3)
        game.apply(2, reveal(0))
        game.apply(0, reveal(5))
        assert game.phase == "reveal" and game.current is None
        assert sorted(game.to_act()) == [0, 1, 2]
        game.apply(2, reveal(11))
        assert game.to_act() == [0, 1]

    def test_play_starts_when_every_seat_has_turned_two(self):
        game = new_game(2, grids={0: GRID0, 1: GRID1})
        for seat, pos in [(0, 0), (1, 0), (1, 1)]:
            game.apply(seat, reveal(pos))
        assert game.phase == "reveal"
        game.apply(0, reveal(1))
        assert game.phase == "play"
        assert game.up[0][:2] == [True, True] and game.hidden == [10, 10]

    def test_it_rejects_a_third_reveal(self):
        game = new_game(2)
        game.apply(0, reveal(0))
        game.apply(0, reveal(1))
        before = snapshot(game)
        with pytest.raises(RevealsDone):
            game.apply(0, reveal(2))
        assert snapshot(game) == before

    def test_it_rejects_revealing_the_same_card_twice(self):
        game = new_game(2)
        game.apply(0, reveal(3))
        before = snapshot(game)
        with pytest.raises(CardAlreadyFaceUp):
            game.apply(0, reveal(3))
        assert snapshot(game) == before

    @pytest.mark.parametrize("pos", [-1, 12, None, "3", True, 2.0])
    def test_it_rejects_a_bad_reveal_position(self, pos):
        game = new_game(2)
        before = snapshot(game)
        with pytest.raises(BadPosition):
            game.apply(0, Action(REVEAL, pos))
        assert snapshot(game) == before

    def test_it_rejects_a_turn_before_the_reveals_are_done(self):
        game = new_game(2)
        game.apply(0, reveal(0))
        before = snapshot(game)
        for action in (draw(), take_discard(0), swap(0), flip(0)):
            with pytest.raises(WrongPhase):
                game.apply(0, action)
        assert snapshot(game) == before

    def test_it_rejects_a_reveal_during_play(self):
        game = two_players()
        before = snapshot(game)
        with pytest.raises(WrongPhase):
            game.apply(0, reveal(0))
        assert snapshot(game) == before


class TestStarter:
    def test_the_highest_pair_starts_round_one(self):
        game = new_game(
            3,
            grids={0: {0: 5, 1: 5}, 1: {0: 12, 1: 0}, 2: {0: 7, 1: 4}},
            reveals=[(0, 1)] * 3,
        )
        assert game.current == 1 and game.starter == 1

    def test_a_tie_goes_to_the_lowest_tied_seat(self):
        game = new_game(
            4,
            grids={0: {0: 1, 1: 1}, 1: {0: 4, 1: 8}, 2: {0: 12, 1: 0}, 3: {0: 6, 1: 6}},
            reveals=[(0, 1)] * 4,
        )
        assert game.current == 1

    def test_negative_cards_count_in_the_sum(self):
        game = new_game(
            2,
            grids={0: {0: -2, 1: -1}, 1: {0: -2, 1: 0}},
            reveals=[(0, 1)] * 2,
        )
        assert game.current == 1


class TestTakeDiscard:
    def test_it_swaps_the_discard_with_a_face_down_card(self):
        game = two_players(discard=6)
        turn(game, {"take": "discard", "swap": 2})
        assert game.cards[0][2] == 6 and game.up[0][2]
        assert game.discard == [3] and game.hidden[0] == 9
        assert game.current == 1

    def test_it_swaps_the_discard_with_a_face_up_card(self):
        game = two_players(discard=6)
        turn(game, {"take": "discard", "swap": 11})
        assert game.cards[0][11] == 6 and game.discard == [12] and game.hidden[0] == 10

    def test_it_rejects_taking_the_discard_while_holding_a_drawn_card(self):
        game = two_players()
        game.apply(0, draw())
        before = snapshot(game)
        with pytest.raises(DrawnCardPending):
            game.apply(0, take_discard(0))
        assert snapshot(game) == before

    def test_it_rejects_taking_the_discard_then_discarding_it(self):
        with pytest.raises(DiscardMustBeSwapped):
            Action.from_json({"take": "discard", "flip": 3})
        assert issubclass(DiscardMustBeSwapped, IllegalAction)

    def test_it_rejects_taking_the_discard_without_a_position(self):
        with pytest.raises(MalformedAction):
            Action.from_json({"take": "discard"})


class TestDrawAndSwap:
    def test_the_draw_is_a_step_of_its_own(self):
        game = two_players(draws=[9, 4])
        game.apply(0, draw())
        assert game.drawn == 9 and game.current == 0 and len(game.draw_pile) == 150 - 26
        assert game.legal_actions(0) == [Action(SWAP, p) for p in range(12)] + [
            Action(FLIP, p) for p in range(10)
        ]
        game.apply(0, swap(11))
        assert game.drawn is None and game.cards[0][11] == 9 and game.discard == [6, 12]
        assert game.current == 1

    def test_a_drawn_card_may_replace_a_face_down_card(self):
        game = two_players(draws=[9])
        turn(game, {"take": "deck", "swap": 0})
        assert game.cards[0][0] == 9 and game.up[0][0] and game.discard[-1] == 1

    def test_it_rejects_drawing_twice(self):
        game = two_players()
        game.apply(0, draw())
        before = snapshot(game)
        with pytest.raises(DrawnCardPending):
            game.apply(0, draw())
        assert snapshot(game) == before

    def test_it_rejects_a_swap_before_drawing(self):
        game = two_players()
        before = snapshot(game)
        with pytest.raises(NothingDrawn):
            game.apply(0, swap(0))
        with pytest.raises(NothingDrawn):
            game.apply(0, flip(0))
        assert snapshot(game) == before

    @pytest.mark.parametrize("pos", [-1, 12, 100, None, "0"])
    def test_it_rejects_a_bad_swap_position(self, pos):
        game = two_players()
        game.apply(0, draw())
        before = snapshot(game)
        with pytest.raises(BadPosition):
            game.apply(0, Action(SWAP, pos))
        with pytest.raises(BadPosition):
            game.apply(0, Action(FLIP, pos))
        assert snapshot(game) == before


class TestDrawAndDiscard:
    def test_it_discards_the_drawn_card_and_turns_a_face_down_card(self):
        game = two_players(draws=[9])
        turn(game, {"take": "deck", "flip": 4})
        assert game.discard == [6, 9] and game.up[0][4] and game.cards[0][4] == 5
        assert game.hidden[0] == 9 and game.current == 1

    def test_it_rejects_flipping_a_face_up_card(self):
        game = two_players()
        game.apply(0, draw())
        before = snapshot(game)
        with pytest.raises(CardAlreadyFaceUp):
            game.apply(0, flip(11))
        assert snapshot(game) == before

    def test_it_rejects_draw_and_discard_with_no_face_down_card(self):
        # In play the player to act always has a face-down card (whoever turns their last one
        # ends the round), so this guard is reached by setting the state by hand.
        game = two_players()
        game.up[0] = [True] * 12
        game.hidden[0] = 0
        game.apply(0, draw())
        before = snapshot(game)
        with pytest.raises(NoFaceDownCard):
            game.apply(0, flip(3))
        assert snapshot(game) == before
        assert game.legal_actions(0) == [Action(SWAP, p) for p in range(12)]


class TestTurnOrder:
    def test_it_rejects_a_turn_out_of_turn(self):
        game = two_players()
        before = snapshot(game)
        for action in (draw(), take_discard(0)):
            with pytest.raises(NotYourTurn):
                game.apply(1, action)
        assert snapshot(game) == before

    def test_it_rejects_a_step_by_another_seat_while_a_card_is_drawn(self):
        game = two_players()
        game.apply(0, draw())
        before = snapshot(game)
        with pytest.raises(NotYourTurn):
            game.apply(1, swap(0))
        assert snapshot(game) == before

    @pytest.mark.parametrize("seat", [-1, 2, None, "0", True])
    def test_it_rejects_an_unknown_player(self, seat):
        game = two_players()
        before = snapshot(game)
        with pytest.raises(NotAPlayer):
            game.apply(seat, draw())
        if seat is not None:
            with pytest.raises(NotAPlayer):
                view_of(game, seat)
        assert snapshot(game) == before

    def test_play_passes_to_the_next_seat_and_wraps(self):
        game = new_game(4, grids={3: {0: 12, 1: 12}}, reveals=[(0, 1)] * 4)
        assert game.current == 3
        seen = []
        for _ in range(5):
            seen.append(game.current)
            turn(game, {"take": "discard", "swap": 0})
        assert seen == [3, 0, 1, 2, 3]

    def test_it_rejects_something_that_is_not_an_action(self):
        game = two_players()
        before = snapshot(game)
        with pytest.raises(MalformedAction):
            game.apply(0, {"take": "deck"})
        with pytest.raises(MalformedAction):
            game.apply(0, Action("pass"))
        assert snapshot(game) == before


class TestColumns:
    def test_it_removes_three_twelves_made_by_a_swap(self):
        # column 1 is positions 1, 5, 9; two 12s face up, the third comes from the discard
        game = new_game(
            2,
            grids={0: {1: 12, 5: 12, 9: 4}, 1: {0: 0, 1: 0}},
            discard=12,
            reveals=[(1, 5), (0, 1)],
        )
        turn(game, {"take": "discard", "swap": 9})
        assert [game.cards[0][p] for p in (1, 5, 9)] == [None, None, None]
        assert game.discard == [4, 12, 12, 12]
        assert game.score(0) == 0

    def test_the_removed_cards_go_on_top_of_the_discarded_card(self):
        game = new_game(
            2,
            grids={0: {0: 7, 4: 7, 8: 3}, 1: {0: 0, 1: 0}},
            discard=5,
            draws=[11],
            reveals=[(0, 4), (0, 1)],
        )
        game.apply(0, draw())
        game.apply(0, flip(8))
        assert game.cards[0][8] == 3 and game.discard == [5, 11]
        game = new_game(
            2,
            grids={0: {0: 7, 4: 7, 8: 7}, 1: {0: 0, 1: 0}},
            discard=5,
            draws=[11],
            reveals=[(0, 4), (0, 1)],
        )
        turn(game, {"take": "deck", "flip": 8})
        assert game.discard == [5, 11, 7, 7, 7]
        assert game.cards[0][0::4] == [None, None, None]

    def test_a_face_down_card_keeps_a_column(self):
        game = new_game(
            2,
            grids={0: {0: 7, 4: 7, 8: 7}, 1: {0: 0, 1: 0}},
            reveals=[(0, 4), (0, 1)],
        )
        assert game.cards[0][0] == 7 and not game.up[0][8]

    def test_it_rejects_a_swap_into_a_removed_position(self):
        game = new_game(
            2,
            grids={0: {1: 12, 5: 12, 9: 4}, 1: {0: 0, 1: 0}},
            discard=12,
            reveals=[(1, 5), (0, 1)],
        )
        turn(game, {"take": "discard", "swap": 9})
        turn(game, {"take": "discard", "swap": 0})
        before = snapshot(game)
        with pytest.raises(PositionRemoved):
            game.apply(0, take_discard(5))
        game.apply(0, draw())
        mid = snapshot(game)
        for action in (swap(1), flip(9)):
            with pytest.raises(PositionRemoved):
                game.apply(0, action)
        assert snapshot(game) == mid
        assert issubclass(PositionRemoved, BadPosition)
        assert before[2:4] == mid[2:4]
        assert {a.pos for a in game.legal_actions(0)}.isdisjoint({1, 5, 9})

    def test_removed_positions_show_as_null_in_views(self):
        game = new_game(
            2,
            grids={0: {1: 12, 5: 12, 9: 4}, 1: {0: 0, 1: 0}},
            discard=12,
            reveals=[(1, 5), (0, 1)],
        )
        turn(game, {"take": "discard", "swap": 9})
        grid = view_of(game, 1).to_json()["players"][0]["grid"]
        assert grid[1] is None and grid[5] is None and grid[9] is None and grid[0] == "?"

    def test_only_the_acting_players_column_is_checked(self):
        game = new_game(
            2,
            grids={0: {0: 3, 4: 3, 8: 9, 1: 9}, 1: {0: 0, 1: 0}},
            discard=3,
            reveals=[(0, 4), (0, 1)],
        )
        turn(game, {"take": "discard", "swap": 8})
        assert game.cards[0][0::4] == [None, None, None]
        assert game.cards[1][0] == 0


class TestReshuffle:
    def test_an_empty_draw_pile_is_rebuilt_from_the_discards_at_the_end_of_the_turn(self):
        game = two_players()
        while len(game.draw_pile) > 1:
            turn(game, {"take": "deck", "swap": 11 if game.current == 0 else 1})
        assert game.log.reshuffles == []
        seat = game.current
        game.apply(seat, draw())
        assert game.draw_pile == [] and game.drawn is not None  # may stand empty while held
        out = game.cards[seat][11 if seat == 0 else 1]
        below = list(game.discard)
        game.apply(seat, swap(11 if seat == 0 else 1))
        assert game.discard == [out]
        assert sorted(game.draw_pile) == sorted(below)
        assert game.log.reshuffles == [game.draw_pile[::-1]]
        assert game.current == 1 - seat

    def test_the_reshuffle_comes_after_the_column_check(self):
        # seat 0 draws the last card of the pile (d[149], a 7) and completes column 0 with it
        game = new_game(
            2,
            grids={0: {0: 7, 4: 7, 8: 2}, 1: {0: 0, 1: 0}},
            draws=[None] * 124 + [7],
            reveals=[(0, 4), (0, 1)],
        )
        while len(game.draw_pile) > 1:
            turn(game, {"take": "deck", "swap": 11 if game.current == 0 else 1})
        assert game.current == 0
        turn(game, {"take": "deck", "swap": 8})
        assert game.cards[0][0::4] == [None, None, None]
        assert game.discard == [7]
        assert sorted(game.draw_pile).count(7) >= 2 and 2 in game.draw_pile

    def test_a_refused_step_leaves_the_last_reshuffle_as_it_was(self):
        game = new_game(2, draws=[None] * 124 + [7], reveals=[(0, 4), (0, 1)])
        while game.last_reshuffle is None:
            turn(game, {"take": "deck", "swap": 11 if game.current == 0 else 1})
        reshuffled = list(game.last_reshuffle)
        with pytest.raises(NotYourTurn):
            game.apply(1 - game.current, draw())
        assert game.last_reshuffle == reshuffled

    def test_the_turn_that_ends_the_round_reshuffles_an_empty_draw_pile_too(self):
        game = two_players(rules=Rules(end_score=1000))
        for pos in range(9):  # seat 0 keeps only position 9 face down; seat 1 stalls
            turn(game, {"take": "deck", "flip": pos})
            turn(game, {"take": "deck", "swap": 0})
        while not (len(game.draw_pile) == 2 and game.current == 0):
            if game.current == 0:
                turn(game, {"take": "deck", "swap": 5})  # column 1 keeps its face-down card
            elif len(game.draw_pile) == 2:
                turn(game, {"take": "discard", "swap": 0})  # a turn that draws nothing
            else:
                turn(game, {"take": "deck", "swap": 0})
        assert game.log.reshuffles == []
        turn(game, {"take": "deck", "flip": 9})
        assert game.ender == 0 and game.phase == "final" and len(game.draw_pile) == 1
        game.apply(1, draw())
        below = list(game.discard)
        out = game.cards[1][0]
        game.apply(1, swap(0))
        assert game.phase == "round_over" and game.results[0].ender == 0
        assert game.discard == [out] and sorted(game.draw_pile) == sorted(below)
        assert game.log.reshuffles == [game.draw_pile[::-1]]
        again = from_record(to_record(game))
        assert to_snapshot(again) == to_snapshot(game)


class TestActionJson:
    @pytest.mark.parametrize(
        "data,action",
        [
            ({"reveal": 3}, Action(REVEAL, 3)),
            ({"take": "discard", "swap": 0}, Action(TAKE_DISCARD, 0)),
            ({"take": "deck"}, Action(DRAW)),
            ({"swap": 11}, Action(SWAP, 11)),
            ({"flip": 7}, Action(FLIP, 7)),
        ],
    )
    def test_it_round_trips_each_action(self, data, action):
        assert Action.from_json(data) == action
        assert action.to_json() == data

    @pytest.mark.parametrize(
        "data",
        [
            [],
            "draw",
            None,
            {},
            {"take": "pile"},
            {"take": "deck", "swap": 3},
            {"pass": True},
            {"swap": 1, "flip": 2},
        ],
    )
    def test_it_rejects_a_malformed_action(self, data):
        with pytest.raises(MalformedAction):
            Action.from_json(data)

    @pytest.mark.parametrize("data", [{"swap": 12}, {"flip": -1}, {"reveal": "1"}])
    def test_it_rejects_a_bad_position_in_json(self, data):
        with pytest.raises(BadPosition):
            Action.from_json(data)

    def test_every_error_is_an_engine_error_and_a_value_error(self):
        assert issubclass(IllegalAction, EngineError) and issubclass(EngineError, ValueError)
        assert issubclass(MalformedAction, EngineError)
