"""HTTP rate limits: each answers 429 with a message for people once its count is used up.

Every test has a fresh in-memory cache (conftest ``_test_settings``) and lowers the limit
it tests, so the counts start at zero and run out quickly.
"""

import logging
import uuid

import pytest
import redis
from django.urls import reverse

from conftest import PASSWORD
from games import services
from games.models import Game, Lobby

pytestmark = pytest.mark.django_db

MESSAGE = b"Too many requests: please wait a little and try again."


def assert_limited(response):
    assert response.status_code == 429
    assert MESSAGE in response.content
    assert b"<html" in response.content  # the full page, extending base.html


def register(client, n: int):
    return client.post(
        reverse("accounts:register"),
        {
            "username": f"player{n}",
            "email": f"player{n}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


@pytest.mark.parametrize(
    "rate, language, says",
    [
        ("5/h", "en", "at most 5 an hour. Try again in "),
        ("5/2h", "en", "at most 5 every 2 hours. Try again in "),
        ("5/h", "de", "höchstens 5 pro Stunde. Versuche es in "),
        ("3/d", "fr", "3 au plus par jour. Réessayez dans "),
        ("5/h", "sv", "högst 5 i timmen. Försök igen om "),
    ],
)
def test_the_registration_limit_reads_as_a_rate(client, settings, rate, language, says):
    """Failed on main: "at most 5 in 1 hour. Try again in 1 hour." """
    settings.SKYJO_RATELIMIT_REGISTER = rate
    limit = int(rate.split("/")[0])
    for n in range(limit):
        assert register(client, n).status_code == 302
        client.logout()
    refused = client.post(
        reverse("accounts:register"),
        {"username": "late", "email": "l@example.com"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert refused.status_code == 429
    assert says in refused.content.decode()


def test_failed_registration_forms_do_not_use_up_the_accounts_limit(client, settings):
    """Failed on main: one account and four refused forms used up "5 accounts an hour"."""
    settings.SKYJO_RATELIMIT_REGISTER = "2/h"
    assert register(client, 0).status_code == 302
    client.logout()
    bad = [
        {"password2": "something else"},  # passwords differ
        {"username": "player0"},  # taken
        {"username": "x" * 40},  # too long
        {"username": "a name"},  # a space
    ]
    for change in bad:
        form = {
            "username": "newcomer",
            "email": "n@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            **change,
        }
        assert client.post(reverse("accounts:register"), form).status_code == 200
    assert register(client, 1).status_code == 302  # the second account of two
    client.logout()
    refused = register(client, 2)
    assert refused.status_code == 429
    assert "Too many accounts were registered from your address: at most 2 an hour" in (
        refused.content.decode()
    )


def test_registration_forms_have_a_limit_of_their_own(client, settings, django_user_model):
    settings.SKYJO_RATELIMIT_REGISTER_TRIES = "3/h"
    form = {"username": "newcomer", "email": "n@example.com", "password1": PASSWORD}
    for _n in range(3):
        assert client.post(reverse("accounts:register"), form).status_code == 200
    refused = client.post(reverse("accounts:register"), {**form, "password2": PASSWORD})
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "The registration form was sent too often from your address: at most 3 times" in page
    assert "accounts were registered" not in page
    assert 'value="newcomer"' in page
    assert not django_user_model.objects.filter(username="newcomer").exists()


def lobby_form(name="Friday"):
    return {"name": name, "seat_count": "2", "is_public": "on", "end_score": "50"}


def test_it_limits_registrations_per_address(client, settings, django_user_model, caplog):
    settings.SKYJO_RATELIMIT_REGISTER = "2/h"
    for n in range(2):
        assert register(client, n).status_code == 302
        client.logout()
    with caplog.at_level(logging.WARNING, logger="skyjo.ratelimit"):
        response = register(client, 2)
    # The form again, as typed (the passwords excepted), with the limit and its window.
    assert response.status_code == 429
    page = response.content.decode()
    assert "at most 2 an hour. Try again in" in page
    assert 'value="player2"' in page and 'value="player2@example.com"' in page
    assert PASSWORD not in page
    assert not django_user_model.objects.filter(username="player2").exists()
    assert "rate limited: POST /accounts/register/ by anonymous from 127.0.0.1" in caplog.text
    # Another address still may; looking at the form is never counted.
    other = client.post(
        reverse("accounts:register"),
        {"username": "zoe", "email": "z@example.com", "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR="10.0.0.9",
    )
    assert other.status_code == 302
    client.logout()
    assert client.get(reverse("accounts:register")).status_code == 200


def test_it_limits_lobby_creation_per_user(client, settings, alice, bob):
    settings.SKYJO_RATELIMIT_CREATE = "2/h"
    client.force_login(alice)
    for n in range(2):
        assert client.post(reverse("games:lobbies"), lobby_form(f"T{n}")).status_code == 302
    assert_limited(client.post(reverse("games:lobbies"), lobby_form("T2")))
    assert Lobby.objects.filter(host=alice).count() == 2
    assert client.get(reverse("games:lobbies")).status_code == 200  # reading is not counted
    client.force_login(bob)  # the count is alice's alone
    assert client.post(reverse("games:lobbies"), lobby_form("B")).status_code == 302


def test_bot_games_and_lobbies_share_the_creation_limit(client, settings, alice):
    settings.SKYJO_RATELIMIT_CREATE = "2/h"
    client.force_login(alice)
    bots = {"bots": "1", "level": "easy", "end_score": "50"}
    assert client.post(reverse("games:play_bots"), bots).status_code == 302
    assert client.post(reverse("games:lobbies"), lobby_form()).status_code == 302
    assert_limited(client.post(reverse("games:play_bots"), bots))
    assert Game.objects.count() == 1


def test_it_limits_joins_and_starts_per_user(client, settings, alice, bob):
    settings.SKYJO_RATELIMIT_JOIN = "2/h"
    lobby = services.lobby_create(host=alice, name="Table", seat_count=2)
    client.force_login(bob)
    join = reverse("games:lobby_join", args=[lobby.pk])
    leave = reverse("games:lobby_leave", args=[lobby.pk])
    assert client.post(join).status_code == 302
    assert client.post(leave).status_code == 302  # leaving is not a join
    assert client.post(join).status_code == 302
    client.post(leave)
    assert_limited(client.post(join))
    client.force_login(alice)
    assert client.post(reverse("games:lobby_join", args=[lobby.pk])).status_code == 302


def test_it_limits_every_post_per_user(client, settings, alice):
    settings.SKYJO_RATELIMIT_WRITE = "3/m"
    lobby = services.lobby_create(host=alice, name="Table", seat_count=3)
    client.force_login(alice)
    add = reverse("games:lobby_add_bot", args=[lobby.pk, 1])
    remove = reverse("games:lobby_remove_bot", args=[lobby.pk, 1])
    for url in (add, remove, add):
        assert client.post(url, {"level": "easy"}).status_code == 302
    assert_limited(client.post(remove))
    assert lobby.seats.get(index=1).bot_level == "easy"  # the refused POST changed nothing
    assert client.get(reverse("games:lobby", args=[lobby.pk])).status_code == 200


def test_the_write_limit_covers_djangos_own_views_but_not_the_login(client, settings, alice):
    settings.SKYJO_RATELIMIT_WRITE = "1/m"
    reset = reverse("password_reset")
    assert client.post(reset, {"email": "alice@example.com"}).status_code == 302
    assert_limited(client.post(reset, {"email": "alice@example.com"}))
    login = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert login.status_code == 302  # django-axes guards the log-in form


def test_htmx_gets_a_flash_fragment(client, settings, alice):
    settings.SKYJO_RATELIMIT_CREATE = "1/h"
    client.force_login(alice)
    client.post(reverse("games:lobbies"), lobby_form())
    response = client.post(reverse("games:lobbies"), lobby_form(), headers={"HX-Request": "true"})
    assert response.status_code == 429
    assert MESSAGE in response.content
    assert b'id="flash"' in response.content and b"<html" not in response.content


def test_skyjo_ratelimit_false_turns_them_off(client, settings, alice):
    settings.RATELIMIT_ENABLE = False
    settings.SKYJO_RATELIMIT_CREATE = "1/h"
    settings.SKYJO_RATELIMIT_WRITE = "1/h"
    client.force_login(alice)
    for n in range(3):
        assert client.post(reverse("games:lobbies"), lobby_form(f"T{n}")).status_code == 302


def test_the_count_lives_in_the_shared_redis_cache(client, settings, alice, redis_url):
    """With REDIS_URL every process counts in Redis. A key prefix of this test's own keeps
    parallel runs on the same Redis apart (and nothing flushes the database)."""
    prefix = f"skyjo-test-{uuid.uuid4().hex}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": prefix,
        }
    }
    settings.SKYJO_RATELIMIT_CREATE = "1/h"
    client.force_login(alice)
    other_process = redis.Redis.from_url(redis_url)
    try:
        assert client.post(reverse("games:lobbies"), lobby_form("A")).status_code == 302
        keys = list(other_process.scan_iter(f"{prefix}:*"))
        assert keys and all(b":rl:" in key for key in keys)
        assert_limited(client.post(reverse("games:lobbies"), lobby_form("B")))
    finally:
        keys = list(other_process.scan_iter(f"{prefix}:*"))
        if keys:
            other_process.delete(*keys)
        other_process.close()
