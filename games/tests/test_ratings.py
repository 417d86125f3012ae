"""Ratings move when a game between people ends, and the leaderboard shows them."""

import pytest

from games.tests.helpers import play_to_end, restore, start_game

pytestmark = pytest.mark.django_db


def test_a_finished_game_moves_the_winner_up_and_the_loser_down(alice, bob):
    before = alice.rating_mu, bob.rating_mu
    game = start_game(alice, bob, end_score=20)
    play_to_end(game, [alice, bob], seed=11)
    state = restore(game)
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.rated_games == bob.rated_games == 1
    if state.totals[0] < state.totals[1]:
        assert alice.rating_mu > before[0] and bob.rating_mu < before[1]
    elif state.totals[0] > state.totals[1]:
        assert alice.rating_mu < before[0] and bob.rating_mu > before[1]
    else:
        assert alice.rating_mu == pytest.approx(bob.rating_mu)
    assert alice.rating_sigma < 25 / 3 and bob.rating_sigma < 25 / 3


def test_an_unfinished_game_rates_nobody(alice, bob):
    start_game(alice, bob)
    alice.refresh_from_db()
    assert alice.rated_games == 0 and alice.rating == 1000


def test_the_leaderboard_lists_rated_players_best_first(client, alice, bob, charlie):
    game = start_game(alice, bob, end_score=20)
    play_to_end(game, [alice, bob], seed=11)
    alice.refresh_from_db()
    bob.refresh_from_db()
    page = client.get("/players/").content.decode()
    first, second = sorted([alice, bob], key=lambda u: u.rating, reverse=True)
    assert page.index(f">{first.username}<") < page.index(f">{second.username}<")
    assert ">charlie<" not in page
