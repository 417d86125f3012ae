"""A player deletes their own account from the settings page, with their password: the account
goes, the games they played stay with the others (accounts.deletion)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from conftest import PASSWORD
from games.models import Game, GamePlayer
from games.tests.helpers import play_to_end, start_game
from stats.models import GameResult

pytestmark = pytest.mark.django_db

URL = reverse("accounts:delete")


def test_the_settings_page_offers_it(client, alice):
    client.force_login(alice)
    page = client.get(reverse("accounts:settings")).content.decode()
    assert f'href="{URL}"' in page
    form = client.get(URL).content.decode()
    assert "This is for good." in form and 'name="password"' in form


def test_with_the_password_the_account_goes_and_its_games_stay(client, alice, bob):
    game = start_game(alice, bob, end_score=30)
    play_to_end(game, [alice, bob], seed=1)
    client.force_login(alice)
    response = client.post(URL, {"password": PASSWORD}, follow=True)
    assert response.redirect_chain == [(reverse("home"), 302)]
    assert "Your account is deleted. Thank you for playing!" in response.content.decode()
    assert not get_user_model().objects.filter(username="alice").exists()
    assert not response.wsgi_request.user.is_authenticated
    assert Game.objects.filter(pk=game.pk).exists()
    assert GamePlayer.objects.get(game=game, seat=0).name == "alice"
    assert GameResult.objects.get(game=game, seat=1).user_id == bob.pk
    refused = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert refused.status_code == 200 and not refused.wsgi_request.user.is_authenticated


def test_a_wrong_password_deletes_nothing_and_says_so(client, alice):
    client.force_login(alice)
    response = client.post(URL, {"password": "not-it"})
    assert response.status_code == 200
    assert "That is not your password: nothing was deleted." in response.content.decode()
    assert get_user_model().objects.filter(pk=alice.pk).exists()


def test_guesses_count_with_the_password_changes(client, alice, settings):
    """A session left open could otherwise guess the password here, with no limit."""
    settings.SKYJO_RATELIMIT_PASSWORD = "3/h"
    client.force_login(alice)
    answers = [client.post(URL, {"password": f"guess-{n}"}).status_code for n in range(3)]
    assert answers == [200, 200, 200]
    assert client.post(URL, {"password": PASSWORD}).status_code == 429
    assert get_user_model().objects.filter(pk=alice.pk).exists()


def test_a_staff_account_is_deleted_in_the_admin_only(client, alice):
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    client.force_login(alice)
    assert f'href="{URL}"' not in client.get(reverse("accounts:settings")).content.decode()
    response = client.post(URL, {"password": PASSWORD})
    assert response.status_code == 403
    assert "A staff account is deleted by a superuser, in the admin." in response.content.decode()
    assert get_user_model().objects.filter(pk=alice.pk).exists()


def test_logged_out_it_asks_to_log_in(client):
    response = client.get(URL)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_name_stays_taken_while_a_game_shows_it(client, alice, bob):
    """Someone registering "alice" again would pass for her in her games' pages and replays."""
    game = start_game(alice, bob, end_score=30)
    play_to_end(game, [alice, bob], seed=1)
    alice.delete()
    form = {
        "email": "new@example.com",
        "password1": "horse-battery-99",
        "password2": "horse-battery-99",
    }
    for name in ("alice", "ALICE"):
        page = client.post(reverse("accounts:register"), {**form, "username": name})
        assert page.status_code == 200
        assert "A deleted account played under this name" in page.content.decode()
    assert not get_user_model().objects.filter(username__iexact="alice").exists()


def test_a_name_no_game_shows_is_free_again(client, alice):
    alice.delete()
    form = {
        "email": "new@example.com",
        "password1": "horse-battery-99",
        "password2": "horse-battery-99",
    }
    client.post(reverse("accounts:register"), {**form, "username": "alice"})
    assert get_user_model().objects.filter(username="alice").exists()
