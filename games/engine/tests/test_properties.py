"""Properties of random legal play from random seeds (hypothesis)."""

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import HIDDEN, Game, Rules, from_record, to_record, view_of
from games.engine.cards import DECK_COUNTER

from .helpers import play_randomly

PROFILE = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_STEPS = 20_000

seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.integers(min_value=2, max_value=8)
rules = st.builds(
    Rules,
    end_score=st.sampled_from([1, 30, 100]),
    double_on_tie=st.booleans(),
    final_reveal_clears_columns=st.booleans(),
)


def all_cards(game: Game) -> Counter:
    """Grids, draw pile, discard pile (removed columns included) and the pending drawn card."""
    cards = Counter(v for grid in game.cards for v in grid if v is not None)
    cards.update(game.draw_pile)
    cards.update(game.discard)
    if game.drawn is not None:
        cards[game.drawn] += 1
    return cards


def random_play(seed: int, n: int, game_rules: Rules, check=None) -> Game:
    """Play random legal actions (and deal new rounds) until the game is over."""
    rng = random.Random(seed)
    game = Game([f"p{i}" for i in range(n)], game_rules, seed=seed)
    for _ in range(MAX_STEPS):
        if game.finished:
            return game
        if game.phase == "round_over":
            game.next_round()
        else:
            seat = rng.choice(game.to_act())
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        if check:
            check(game)
    raise AssertionError(f"no end after {MAX_STEPS} steps")


@PROFILE
@given(seeds, players, rules)
def test_random_legal_play_always_ends(seed, n, game_rules):
    game = random_play(seed, n, game_rules)
    assert game.phase == "game_over" and game.winners
    assert max(game.totals) >= game_rules.end_score


@PROFILE
@given(seeds, players, rules)
def test_all_150_cards_are_accounted_for_after_every_action(seed, n, game_rules):
    def check(game):
        assert all_cards(game) == DECK_COUNTER

    random_play(seed, n, game_rules, check)


@PROFILE
@given(seeds, players, rules, st.integers(min_value=0, max_value=400))
def test_writing_and_replaying_a_record_gives_the_same_state(seed, n, game_rules, stop):
    rng = random.Random(seed)
    game = play_randomly(Game([f"p{i}" for i in range(n)], game_rules, seed=seed), rng, stop)
    record = json.loads(json.dumps(to_record(game)))
    again = from_record(record)
    assert to_record(again) == record
    for seat in [None, *range(n)]:
        assert view_of(again, seat) == view_of(game, seat)
    assert (again.draw_pile, again.discard, again.cards, again.drawn) == (
        game.draw_pile,
        game.discard,
        game.cards,
        game.drawn,
    )
    assert (again.phase, again.current, again.totals) == (game.phase, game.current, game.totals)


def hide_unknowns(game: Game, seat: int | None, rng: random.Random) -> Game:
    """The same game with every card ``seat`` cannot see shuffled among those places."""
    other = game.copy()
    places = [(s, p) for s in range(game.n) for p in range(12) if not game.up[s][p]]
    unknown = [other.cards[s][p] for s, p in places] + other.draw_pile
    drawn_hidden = other.drawn is not None and seat != other.current
    if drawn_hidden:
        unknown.append(other.drawn)
    rng.shuffle(unknown)
    for s, p in places:
        other.cards[s][p] = unknown.pop()
    if drawn_hidden:
        other.drawn = unknown.pop()
    other.draw_pile = unknown
    return other


@PROFILE
@given(seeds, players, rules)
def test_no_view_holds_a_face_down_value_or_anothers_drawn_card(seed, n, game_rules):
    shuffler = random.Random(seed)

    def check(game):
        for seat in [None, *range(game.n)]:
            view = view_of(game, seat)
            for s in range(game.n):
                for p in range(12):
                    if game.cards[s][p] is None:
                        assert view.grids[s][p] is None
                    elif not game.up[s][p]:
                        assert view.grids[s][p] == HIDDEN
            if seat is None or seat != game.current:
                assert view.drawn is None
            if shuffler.random() < 0.1:
                assert view_of(hide_unknowns(game, seat, shuffler), seat) == view

    random_play(seed, n, game_rules, check)


@PROFILE
@given(seeds, players)
def test_the_same_seed_plays_the_same_game(seed, n):
    a = random_play(seed, n, Rules())
    b = random_play(seed, n, Rules())
    assert to_record(a) == to_record(b)
