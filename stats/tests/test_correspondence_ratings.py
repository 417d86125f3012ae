"""Correspondence games move a rating of their own, live games the live one; a seat lost on time
(forfeited) ranks last in the results and the ratings, and the pages show both ratings."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import signals
from games.models import Game, GamePlayer, Lobby
from games.tests.helpers import play_to_end, start_game
from stats import ratings
from stats.models import GameResult, RatingChange
from stats.queries import leaderboard

pytestmark = pytest.mark.django_db


def correspondence(game, days=2):
    Lobby.objects.filter(pk=game.lobby_id).update(move_days=days)
    game.refresh_from_db()
    return game


def finish(game, totals, forfeited=()):
    """End ``game`` with these totals by seat, the seats of ``forfeited`` lost on time: the
    signal games sends when a game finishes."""
    players = list(GamePlayer.objects.filter(game=game).order_by("seat"))
    best = min(t for seat, t in enumerate(totals) if seat not in forfeited)
    for p in players:
        p.total, p.forfeited = totals[p.seat], p.seat in forfeited
        p.won = p.total == best and not p.forfeited
    GamePlayer.objects.bulk_update(players, ["total", "forfeited", "won"])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    signals.game_finished.send(Game, game=game, players=players, rounds=3)
    return {p.seat: p.user_id for p in players}


def live_fields(user):
    return user.rating_mu, user.rating_sigma, user.rated_games


def corr_fields(user):
    return user.corr_rating_mu, user.corr_rating_sigma, user.corr_rated_games


def test_a_correspondence_game_moves_only_the_correspondence_rating(alice, bob):
    game = correspondence(start_game(alice, bob, end_score=20))
    play_to_end(game, [alice, bob], seed=4)
    game.refresh_from_db()
    assert game.status == "finished"
    for user in (alice, bob):
        user.refresh_from_db()
        assert live_fields(user) == (25.0, 25.0 / 3, 0)
        assert user.corr_rated_games == 1 and user.corr_rating_sigma < 25.0 / 3
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert {c.kind for c in changes.values()} == {"correspondence"}
    assert changes[alice.pk].mu_after == alice.corr_rating_mu
    assert changes[alice.pk].rating_after == alice.corr_rating


def test_a_live_game_moves_only_the_live_rating(alice, bob):
    game = start_game(alice, bob, end_score=20)
    play_to_end(game, [alice, bob], seed=4)
    for user in (alice, bob):
        user.refresh_from_db()
        assert corr_fields(user) == (25.0, 25.0 / 3, 0)
        assert user.rated_games == 1
    assert set(RatingChange.objects.values_list("kind", flat=True)) == {"live"}


def test_a_forfeited_seat_is_last_in_the_results_and_never_won(alice, bob, charlie):
    game = correspondence(start_game(alice, bob, charlie))
    # Alice lost on time with the lowest total (a bot played on): last all the same.
    users = finish(game, [10, 40, 30], forfeited={0})
    results = {r.user_id: r for r in GameResult.objects.filter(game=game)}
    assert [(results[users[s]].place, results[users[s]].won) for s in range(3)] == [
        (3, False),
        (2, False),
        (1, True),
    ]
    assert [results[users[s]].forfeited for s in range(3)] == [True, False, False]
    assert not any(r.is_bot or r.with_bots for r in results.values())


def test_several_forfeits_share_the_last_place_whatever_their_totals(alice, bob, charlie):
    game = correspondence(start_game(alice, bob, charlie))
    users = finish(game, [10, 20, 50], forfeited={0, 1})
    places = dict(GameResult.objects.filter(game=game).values_list("user_id", "place"))
    assert [places[users[s]] for s in range(3)] == [3, 3, 1]


def test_the_rating_ranks_put_forfeits_below_everyone():
    assert ratings.ranks({1: 10, 2: 40, 3: 30}, forfeited={1}) == {1: 3, 2: 2, 3: 1}
    assert ratings.ranks({1: 10, 2: 40, 3: 40, 4: 5}, forfeited={1, 4}) == {
        1: 2,
        2: 1,
        3: 1,
        4: 2,
    }


def test_a_forfeited_player_loses_rating_though_their_total_was_best(alice, bob):
    game = correspondence(start_game(alice, bob))
    finish(game, [5, 90], forfeited={0})
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.corr_rating_mu < 25.0 < bob.corr_rating_mu
    assert alice.rated_games == bob.rated_games == 0


def test_the_profile_shows_both_ratings_and_marks_correspondence_and_forfeits(client, alice, bob):
    live = start_game(alice, bob)
    finish(live, [10, 40])
    game = correspondence(start_game(alice, bob), days=3)
    finish(game, [10, 40], forfeited={0})
    alice.refresh_from_db()
    page = client.get("/u/alice/").content.decode()
    corr = page.split('id="corr-rating"')[1].split("</div>")[0]
    assert f"{alice.corr_rating}?" in corr and "Correspondence rating (provisional)" in corr
    assert f"{alice.rating}?" in page.split('id="corr-rating"')[0]
    assert 'id="rating-chart-title"' in page and 'id="corr-rating-chart-title"' in page
    assert "by correspondence" in page and "Days per move: 3" in page
    assert page.count("lost (on time)") == 1


def test_the_live_chart_and_leaderboard_leave_correspondence_changes_out(client, alice, bob):
    game = correspondence(start_game(alice, bob))
    finish(game, [10, 40])
    page = client.get("/u/alice/").content.decode()
    assert 'id="corr-rating-chart-title"' in page and 'id="rating-chart-title"' not in page
    assert leaderboard().paginator.count == 0
    assert leaderboard(period="30d", kind="correspondence").paginator.count == 2
    assert leaderboard(period="30d").paginator.count == 0


def rated(django_user_model, name, live, corr):
    return django_user_model.objects.create_user(
        username=name,
        password="x",
        rating_mu=live,
        rating_sigma=1.0,
        rated_games=10,
        corr_rating_mu=corr,
        corr_rating_sigma=1.0,
        corr_rated_games=10 if corr else 0,
    )


def test_the_correspondence_leaderboard_ranks_by_that_rating_in_two_queries(
    client, django_user_model
):
    ann = rated(django_user_model, "ann", live=50, corr=30)
    rated(django_user_model, "ben", live=40, corr=60)
    rated(django_user_model, "cid", live=60, corr=0)  # never played by correspondence
    with CaptureQueriesContext(connection) as queries:
        page = leaderboard(kind="correspondence", viewer=ann)
        found = [(u.username, u.rank, u.corr_rating) for u in page.object_list]
    assert len(queries) == 2
    assert found == [("ben", 1, 1000 + 40 * 57), ("ann", 2, 1000 + 40 * 27)]
    assert page.my_rank == 2
    assert [u.username for u in leaderboard().object_list] == ["cid", "ann", "ben"]

    client.force_login(ann)
    table = client.get("/players/?kind=correspondence").content.decode()
    assert f"<td>{1000 + 40 * 57}</td>" in table and "cid" not in table.split("<tbody>")[1]
    assert 'name="kind" value="correspondence"' in table
    assert "Your rank: #2" in table
    other = client.get("/players/?kind=nonsense").content.decode()  # falls back to live
    assert 'name="kind" value="live"' in other and "cid" in other.split("<tbody>")[1]
