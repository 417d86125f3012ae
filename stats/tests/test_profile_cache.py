"""The profile's cached figures (stats.profile_cache): read again without the aggregates,
replaced as soon as a game of the player finishes or is voided, and never shown to a viewer
who may not see what they count (private games)."""

import re

import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.tests.helpers import play_to_end, start_game
from stats import profile_cache
from stats.models import GameResult, ProfileVersion

pytestmark = pytest.mark.django_db


def finish(*users, public=True):
    if public:
        game = start_game(*users, end_score=30)
    else:
        host, *others = users
        lobby = services.lobby_create(
            host=host, name="Hidden table", seat_count=len(users), is_public=False, end_score=30
        )
        for user in others:
            services.lobby_join(lobby_id=lobby.pk, user=user, invite_code=lobby.invite_code)
        game = services.lobby_start(lobby_id=lobby.pk, user=host)
    play_to_end(game, list(users), seed=3)
    game.refresh_from_db()
    assert game.status == "finished"
    return game


def view(client, viewer=None, name="alice", **headers):
    client.logout()
    if viewer is not None:
        client.force_login(viewer)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/u/{name}/", **headers)
    assert response.status_code == 200
    return response, len(queries)


def page(response) -> str:
    """The page without its CSRF token (a new mask on every response)."""
    return re.sub(r'"X-CSRFToken": "[^"]*"', "", response.content.decode())


def games_seen(client, viewer=None) -> int:
    return view(client, viewer)[0].context["profile"].people.games


def test_a_finished_game_gives_its_players_a_new_token(alice, bob, charlie):
    finish(alice, bob)
    tokens = dict(ProfileVersion.objects.values_list("user_id", "token"))
    assert set(tokens) == {alice.pk, bob.pk}
    finish(alice, charlie)
    again = dict(ProfileVersion.objects.values_list("user_id", "token"))
    assert again[alice.pk] != tokens[alice.pk] and again[bob.pk] == tokens[bob.pk]
    assert charlie.pk in again


def test_a_profile_seen_again_is_read_from_the_cache(client, alice, bob):
    finish(alice, bob)
    first, cold = view(client)
    second, warm = view(client)
    assert page(second) == page(first)
    assert second.context["profile"] == first.context["profile"]
    # Only the player (with their token), the history's page and its seats are left.
    assert warm == 3 < cold


def test_the_figures_change_as_soon_as_a_game_finishes(client, alice, bob, charlie):
    finish(alice, bob)
    assert games_seen(client) == 1
    assert games_seen(client) == 1
    finish(alice, charlie)
    assert games_seen(client) == 2
    page = view(client)[0].content.decode()
    assert 'href="/u/charlie/"' in page


@pytest.mark.parametrize("first", ["alice", "bob", "charlie", "moderator", "staff", "visitor"])
def test_a_private_game_counts_only_for_its_players_whoever_looked_first(
    client, alice, bob, charlie, moderator, staff, first
):
    """One public game (alice, charlie) and one private (alice, bob): whoever warms the cache
    first, each viewer of alice's profile sees exactly the games they may see (``is_staff``
    alone is no moderator)."""
    finish(alice, charlie)
    finish(alice, bob, public=False)
    viewers = {"alice": alice, "bob": bob, "charlie": charlie, "moderator": moderator}
    viewers["staff"] = staff
    expected = {"alice": 2, "bob": 2, "charlie": 1, "moderator": 2, "staff": 1, "visitor": 1}
    order = [first, *(name for name in expected if name != first)]
    for name in order + order:
        assert games_seen(client, viewers.get(name)) == expected[name], name
        figures = view(client, viewers.get(name))[0].context["profile"]
        assert len(figures.rating_history) == expected[name], name  # one point per rated game
    page = view(client, charlie)[0].content.decode()
    assert 'href="/u/bob/"' not in page and "Hidden table" not in page
    opponents = view(client, bob)[0].context["profile"].opponents
    assert sorted(o["user__username"] for o in opponents) == ["bob", "charlie"]
    opponents = view(client, charlie)[0].context["profile"].opponents
    assert [o["user__username"] for o in opponents] == ["charlie"]


def test_sharing_a_private_game_later_gives_the_viewer_their_own_figures(
    client, alice, bob, charlie
):
    finish(alice, charlie)
    assert games_seen(client, bob) == 1  # public figures, as everyone sees them
    finish(alice, bob, public=False)
    assert games_seen(client, bob) == 2
    assert games_seen(client, charlie) == 1
    assert games_seen(client) == 1


def test_each_language_has_its_own_panels(client, alice, bob):
    finish(alice, bob)
    german = view(client, HTTP_ACCEPT_LANGUAGE="de")[0].content.decode()
    english = view(client, HTTP_ACCEPT_LANGUAGE="en")[0].content.decode()
    assert "Gegen Menschen" in german and "Gegen Menschen" not in english
    assert "Against people" in english


def test_a_player_without_a_token_is_computed_every_time(client, alice, bob):
    finish(alice, bob)
    ProfileVersion.objects.all().delete()
    first, cold = view(client)
    GameResult.objects.filter(user=alice).delete()  # as a direct write would
    second, again = view(client)
    assert again == cold  # no figure came from the cache
    assert second.context["profile"].people.games == 0


def test_a_cache_that_fails_is_skipped(client, alice, bob, monkeypatch):
    finish(alice, bob)

    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    backend = type(caches["default"])
    monkeypatch.setattr(backend, "get", broken)
    monkeypatch.setattr(backend, "set", broken)
    response, _ = view(client)
    assert response.context["profile"].people.games == 1


def test_a_new_release_does_not_read_the_panels_of_the_last(client, alice, bob, monkeypatch):
    finish(alice, bob)
    _, cold = view(client)
    _, warm = view(client)
    assert warm < cold
    monkeypatch.setattr(profile_cache, "fingerprint", lambda: "the next release")
    _, again = view(client)
    assert again == cold


def test_a_running_game_is_shown_as_it_goes_and_as_it_ended(client, alice, bob):
    game = start_game(alice, bob, end_score=30)
    assert "playing</a>" in page(view(client)[0])
    assert "playing</a>" in page(view(client)[0])
    play_to_end(game, [alice, bob], seed=3)
    game.refresh_from_db()
    total = game.players.get(user=alice).total
    row = page(view(client)[0]).split('<table class="history">')[1]
    assert "playing</a>" not in row and f"<td>{total}</td>" in row
    assert ">won<" in row or "lost" in row
    assert page(view(client)[0]).split('<table class="history">')[1] == row


def test_history_rows_are_kept_per_language(client, alice, bob):
    finish(alice, bob)
    english = view(client, HTTP_ACCEPT_LANGUAGE="en")[0].content.decode()
    german = view(client, HTTP_ACCEPT_LANGUAGE="de")[0].content.decode()
    assert ">replay<" in english and ">replay<" not in german and ">Wiederholung<" in german
