"""Statistics and history on the profile page, checked against the engine's own scoring."""

import pytest

from games.stats import player_history, player_statistics
from games.tests.helpers import play_to_end, restore, start_game

pytestmark = pytest.mark.django_db


def test_a_new_player_has_empty_statistics(alice):
    stats = player_statistics(alice)
    assert (stats.games, stats.wins, stats.rounds) == (0, 0, 0)
    assert stats.best_total is None and stats.win_rate is None
    assert player_history(alice) == []


def test_statistics_follow_a_finished_game(alice, bob):
    game = start_game(alice, bob, end_score=30)
    play_to_end(game, [alice, bob], seed=3)
    state = restore(game)
    assert state.finished

    stats = player_statistics(bob)
    scores = [r.scores[1] for r in state.results]
    assert stats.games == 1
    assert stats.wins == int(1 in state.winners)
    assert stats.best_total == state.totals[1]
    assert stats.rounds == len(state.results)
    assert stats.mean_round_score == pytest.approx(sum(scores) / len(scores))
    assert stats.rounds_ended == sum(r.ender == 1 for r in state.results)
    assert stats.times_doubled == sum(r.ender == 1 and r.doubled for r in state.results)


def test_games_in_progress_are_in_the_history_but_not_the_statistics(alice, bob):
    game = start_game(alice, bob)
    assert player_statistics(alice).games == 0
    [entry] = player_history(alice)
    assert entry.game == game and entry.game.status == "playing"


def test_the_profile_page_shows_figures_and_history(client, alice, bob):
    game = start_game(alice, bob, end_score=30)
    play_to_end(game, [alice, bob], seed=5)
    state = restore(game)
    response = client.get("/u/alice/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "Test table" in page and f"/games/{game.pk}/" in page
    assert ("won" in page) == (0 in state.winners)
    assert f'<span class="stat-value">{state.totals[0]}</span>' in page
