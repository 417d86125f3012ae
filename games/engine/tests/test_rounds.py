"""The end of a round, the final turns, the next round and the end of the game."""

import random

import pytest

from games.engine import (
    ROUND_OVER,
    Game,
    GameIsOver,
    Rules,
    WrongPhase,
    apply_described,
    draw,
    full_deck,
    reveal,
    take_discard,
)

from .grids import A10, B24, C10, HUNDRED, NINETY_NINE
from .helpers import (
    face_down,
    flip_next,
    flip_to_round_end,
    flip_until_final,
    make_deck,
    new_game,
    snapshot,
    turn,
)


def four_players():
    """Seat 1 reveals the highest pair, starts and is the first to turn all its cards."""
    grids = {0: A10, 1: [12, 11, 4, 5, 6, 7, 8, 9, 3, 3, 4, 5], 2: B24, 3: C10}
    return new_game(4, grids=grids, reveals=[(0, 1)] * 4, rules=Rules(end_score=1000))


class TestRoundEnd:
    def test_the_first_player_with_no_face_down_card_ends_the_round(self):
        game = four_players()
        flip_until_final(game)
        assert game.phase == "final" and game.ender == 1
        assert game.hidden[1] == 0 and all(game.hidden[s] == 1 for s in (0, 2, 3))

    def test_every_other_player_gets_one_final_turn_in_seat_order(self):
        game = four_players()
        flip_until_final(game)
        final_turns = []
        while game.phase == "final":
            final_turns.append(game.current)
            flip_next(game)
        assert final_turns == [2, 3, 0]
        assert game.phase == "round_over" and game.current is None

    def test_the_ender_does_not_play_again(self):
        game = four_players()
        flip_until_final(game)
        for _ in range(3):
            with pytest.raises(Exception):  # noqa: B017 - any of the named errors
                game.apply(1, draw())
            flip_next(game)
        assert game.results[0].ender == 1 and len(game.results) == 1

    def test_the_last_seat_ending_hands_the_final_turns_from_seat_zero(self):
        game = new_game(3, grids={2: {0: 12, 1: 12}}, reveals=[(0, 1)] * 3)
        flip_until_final(game)
        assert game.ender == 2
        order = []
        while game.phase == "final":
            order.append(game.current)
            flip_next(game)
        assert order == [0, 1]

    def test_turning_all_cards_in_a_final_turn_does_not_make_a_new_ender(self):
        game = four_players()
        flip_until_final(game)
        flip_next(game)
        assert game.hidden[2] == 0 and game.ender == 1 and game.phase == "final"

    def test_removing_a_column_can_end_the_round(self):
        # seat 0 keeps position 8 face down to the end and completes 7, 7, 7 with the discard
        game = new_game(
            2,
            grids={0: {0: 7, 4: 7, 8: 1}, 1: {0: 0, 1: 0}},
            draws=[None] * 17 + [7],
            reveals=[(0, 4), (0, 1)],
        )
        order = [1, 2, 3, 5, 6, 7, 9, 10, 11]
        for pos in order:
            turn(game, {"take": "deck", "flip": pos})
            turn(game, {"take": "deck", "flip": face_down(game, 1)[0]})
        assert face_down(game, 0) == [8] and game.discard[-1] == 7
        turn(game, {"take": "discard", "swap": 8})
        assert game.cards[0][0::4] == [None, None, None]
        assert game.ender == 0 and game.phase == "final"

    def test_the_round_ends_with_every_card_face_up(self):
        game = four_players()
        flip_until_final(game)
        turn(game, {"take": "discard", "swap": 0})
        turn(game, {"take": "discard", "swap": 0})
        turn(game, {"take": "discard", "swap": 0})
        assert game.phase == "round_over"
        assert all(all(up) for up in game.up) and game.hidden == [0, 0, 0, 0]

    def test_actions_between_rounds_are_rejected(self):
        game = four_players()
        flip_to_round_end(game)
        before = snapshot(game)
        for seat, action in [(1, draw()), (2, take_discard(0)), (0, reveal(0))]:
            with pytest.raises(WrongPhase):
                game.apply(seat, action)
        assert snapshot(game) == before
        assert all(game.legal_actions(s) == [] for s in range(4))


class TestNextRound:
    def test_the_ender_starts_the_next_round(self):
        game = new_game(2, grids={0: A10, 1: NINETY_NINE}, reveals=[(0, 1), (8, 9)])
        flip_to_round_end(game)
        assert game.phase == "round_over" and game.totals == [10, 99]
        # in round 2 seat 1 turns the higher pair, but seat 0 ended round 1 and starts
        game.next_round(make_deck(2, grids={0: A10, 1: B24}))
        assert game.round == 2 and game.phase == "reveal" and game.ender is None
        for seat in (0, 1):
            game.apply(seat, reveal(2))
            game.apply(seat, reveal(3))
        assert game.current == 0 and game.starter == 0
        assert game.results[0].ender == 0

    def test_totals_carry_over_rounds(self):
        game = new_game(2, grids={0: A10, 1: NINETY_NINE}, reveals=[(0, 1), (8, 9)])
        flip_to_round_end(game)
        game.next_round(make_deck(2, grids={0: A10, 1: B24}))
        for seat in (0, 1):
            game.apply(seat, reveal(0))
            game.apply(seat, reveal(1))
        flip_to_round_end(game)
        assert [r.raw for r in game.results] == [(10, 99), (10, 24)]
        assert game.totals == [20, 123] and game.phase == "game_over"

    def test_it_rejects_a_next_round_during_a_round(self):
        game = four_players()
        before = snapshot(game)
        with pytest.raises(WrongPhase):
            game.next_round()
        assert snapshot(game) == before

    def test_a_new_round_is_dealt_from_the_games_random_source(self):
        game = new_game(2, grids={0: A10, 1: NINETY_NINE}, reveals=[(0, 1), (8, 9)])
        flip_to_round_end(game)
        game.next_round()
        assert game.log.deck != game.logs[0].deck and len(game.logs) == 2


class TestGameEnd:
    def test_the_game_ends_when_a_total_reaches_one_hundred(self):
        game = new_game(2, grids={0: A10, 1: HUNDRED}, reveals=[(0, 1), (8, 9)])
        flip_to_round_end(game)
        assert game.totals == [10, 100]
        assert game.phase == "game_over" and game.finished and game.winners == [0]

    def test_ninety_nine_does_not_end_the_game(self):
        game = new_game(2, grids={0: A10, 1: NINETY_NINE}, reveals=[(0, 1), (8, 9)])
        flip_to_round_end(game)
        assert game.phase == "round_over" and not game.finished and game.winners == []

    def test_end_score_is_a_per_game_option(self):
        game = new_game(
            2,
            grids={0: A10, 1: HUNDRED},
            reveals=[(0, 1), (8, 9)],
            rules=Rules(end_score=101),
        )
        flip_to_round_end(game)
        assert game.phase == "round_over"
        game = new_game(2, grids={0: A10, 1: B24}, reveals=[(0, 1)] * 2, rules=Rules(end_score=24))
        flip_to_round_end(game)
        assert game.phase == "game_over"

    def test_equal_lowest_totals_share_the_win(self):
        game = new_game(
            3,
            grids={0: A10, 1: B24, 2: C10},
            reveals=[(0, 1)] * 3,
            rules=Rules(end_score=24, double_on_tie=False),
        )
        flip_to_round_end(game)
        assert game.totals == [10, 24, 10] and game.winners == [0, 2]

    def test_a_doubled_ender_can_lose_the_win(self):
        game = new_game(
            3, grids={0: A10, 1: B24, 2: C10}, reveals=[(0, 1)] * 3, rules=Rules(end_score=24)
        )
        flip_to_round_end(game)
        assert game.totals == [20, 24, 10] and game.winners == [2]

    def test_it_rejects_every_action_after_the_game_ended(self):
        game = new_game(2, grids={0: A10, 1: HUNDRED}, reveals=[(0, 1), (8, 9)])
        flip_to_round_end(game)
        before = snapshot(game)
        for seat in (0, 1):
            for action in (draw(), take_discard(0), reveal(0)):
                with pytest.raises(GameIsOver):
                    game.apply(seat, action)
            assert game.legal_actions(seat) == []
        with pytest.raises(WrongPhase):
            game.next_round()
        assert snapshot(game) == before
        assert issubclass(GameIsOver, WrongPhase)


class TestPlayerCounts:
    @pytest.mark.parametrize("n", range(2, 9))
    def test_a_round_plays_out_for_every_table_size(self, n):
        game = new_game(n, grids={n - 1: {0: 12, 1: 12}}, reveals=[(0, 1)] * n)
        assert game.current == n - 1
        flip_until_final(game)
        assert game.ender == n - 1
        order = []
        while game.phase == "final":
            order.append(game.current)
            flip_next(game)
        assert order == list(range(n - 1))
        assert len(game.results) == 1 and len(game.results[0].raw) == n


@pytest.mark.parametrize("seed", range(12))
def test_the_cards_turned_at_a_rounds_end_are_those_still_face_down(seed):
    """``turned_at_end``: per seat, the cards the round's last step left face down, which the
    scoring turned up (the mover's own step may have turned one more just before)."""
    game = Game(["ann", "ben", "cas"], seed=seed)
    rng = random.Random(seed)
    rounds_checked = 0
    assert game.turned_at_end is None
    while not game.finished:
        if game.phase == ROUND_OVER:
            deck = full_deck()
            rng.shuffle(deck)
            game.next_round(deck)
            continue
        seat = game.to_act()[0]
        face_down = list(game.hidden)
        scored = len(game.results)
        facts = apply_described(game, seat, rng.choice(game.legal_actions(seat)))
        if len(game.results) == scored:
            continue
        if facts["kind"] == "flip" or facts.get("was_down"):
            face_down[seat] -= 1
        assert game.turned_at_end == tuple(face_down)
        assert all(game.up[s] == [True] * 12 for s in range(game.n))
        rounds_checked += 1
    assert rounds_checked == len(game.results) >= 1
