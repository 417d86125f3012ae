"""A private game exists only for its players (and moderators): profiles of its players show
it, its figures and its links to nobody else. Failed on main: strangers and logged-out
visitors saw the table name, the players, the totals and the links."""

import pytest
from django.urls import reverse

from games import services
from games.tests.helpers import play_to_end

pytestmark = pytest.mark.django_db

NAME = "Hidden table"


@pytest.fixture
def private_game(alice, bob):
    lobby = services.lobby_create(
        host=alice, name=NAME, seat_count=2, is_public=False, end_score=30
    )
    services.lobby_join(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    game = services.lobby_start(lobby_id=lobby.pk, user=alice)
    play_to_end(game, [alice, bob], seed=3)
    game.refresh_from_db()
    assert game.status == "finished"
    return game


def profile(client, viewer=None):
    if viewer is not None:
        client.force_login(viewer)
    response = client.get(reverse("accounts:profile", args=["alice"]))
    assert response.status_code == 200
    return response


def shows(response, game) -> bool:
    page = response.content.decode()
    return NAME in page or f"/games/{game.pk}/" in page or "bob" in page


@pytest.mark.parametrize("who", ["visitor", "stranger", "staff"])
def test_others_do_not_see_it(client, private_game, charlie, staff, who):
    """``is_staff`` alone (the admin's login) is no moderator: a stranger like any other."""
    response = profile(client, {"visitor": None, "stranger": charlie, "staff": staff}[who])
    assert not shows(response, private_game)
    assert response.context["profile"].people.games == 0
    assert list(response.context["history"]) == []


@pytest.mark.parametrize("who", ["player", "own", "moderator"])
def test_its_players_and_moderators_see_it(client, private_game, alice, bob, moderator, who):
    viewer = {"player": bob, "own": alice, "moderator": moderator}[who]
    response = profile(client, viewer)
    assert shows(response, private_game)
    assert response.context["profile"].people.games == 1
    assert [e.game for e in response.context["history"]] == [private_game]


@pytest.mark.parametrize("who", ["visitor", "stranger", "staff", "player", "own", "moderator"])
def test_its_rating_change_is_charted_only_for_those_who_may_see_it(
    client, private_game, alice, bob, charlie, staff, moderator, who
):
    """Alice's rating moved in the private game: a chart point with its date would tell a
    stranger its result."""
    from stats.models import RatingChange

    assert RatingChange.objects.filter(user=alice, game=private_game).exists()
    viewer = {"visitor": None, "stranger": charlie, "staff": staff}
    viewer |= {"player": bob, "own": alice, "moderator": moderator}
    response = profile(client, viewer[who])
    history = response.context["profile"].rating_history
    page = response.content.decode()
    if who in ("visitor", "stranger", "staff"):
        assert history == [] and "Rating history" not in page
    else:
        assert [h["game_id"] for h in history] == [private_game.pk]
        assert "Rating history" in page


def test_a_moderator_may_open_it_and_a_stranger_may_not(
    client, private_game, charlie, staff, moderator
):
    for user in (charlie, staff):
        client.force_login(user)
        assert client.get(reverse("games:game", args=[private_game.pk])).status_code == 404
        assert client.get(reverse("games:game_state", args=[private_game.pk])).status_code == 404
    client.force_login(moderator)
    assert client.get(reverse("games:game", args=[private_game.pk])).status_code == 200
    assert client.get(reverse("games:game_state", args=[private_game.pk])).status_code == 200


def test_the_superuser_sees_it(client, private_game, django_user_model):
    root = django_user_model.objects.create_superuser("root", "root@example.com", "x-root-pw-9")
    client.force_login(root)
    assert client.get(reverse("games:game", args=[private_game.pk])).status_code == 200
    assert profile(client, root).context["profile"].people.games == 1


def test_public_games_stay_on_every_profile(client, alice, bob):
    lobby = services.lobby_create(host=alice, name="Open table", seat_count=2)
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    game = services.lobby_start(lobby_id=lobby.pk, user=alice)
    page = profile(client).content.decode()
    assert "Open table" in page and f"/games/{game.pk}/" in page
