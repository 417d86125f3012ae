"""A visitor who is not logged in, and a banned player, change nothing over HTTP: every route
of the URL conf is tried (GET and POST, with the ids of a real lobby, game, message and player),
and afterwards every table a player can write is as it was. The visitor is sent to log in (or
refused); the banned player is logged out on the spot (web.accounts.middleware)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from chat.models import Message, Mute
from chat.services import chat_post
from games import services
from games.models import Game, Lobby, Move, Seat
from moderation.models import AuditEntry, Report
from skyjo_site.tests.test_cross_site import _path, _routes

pytestmark = pytest.mark.django_db

# Pages anyone may read, and the forms of logging in, registering and resetting a password.
OPEN = (
    "",
    "rules/",
    "u/<str:username>/",
    "players/",
    "accounts/register/",
    "accounts/login/",
    "accounts/logout/",
    "language/",  # a visitor's language: a cookie, no row
    "manifest.webmanifest",  # the installable app (web/pwa): nothing of a player in them
    "sw.js",
    "offline/",
    "notifications/unsubscribe/<str:token>/",  # an e-mail's signed link: the token is its proof
)


def _everything() -> tuple:
    """What a player's request could have changed."""
    users = get_user_model().objects.order_by("pk")
    return (
        list(Lobby.objects.order_by("pk").values_list("pk", "status", "host", "name")),
        list(Seat.objects.order_by("pk").values_list("pk", "user", "bot_level")),
        list(Game.objects.order_by("pk").values_list("pk", "version", "status", "rematch")),
        Move.objects.count(),
        list(Message.objects.values_list("pk", "hidden_at")),
        Mute.objects.count(),
        Report.objects.count(),
        AuditEntry.objects.count(),
        list(users.values_list("pk", "email", "bio", "language", "chat_enabled", "is_banned")),
    )


@pytest.fixture
def world(alice, bob, charlie):
    """A running game of alice and bob, an open lobby of alice's with charlie, a chat message."""
    game = services.lobby_start(
        lobby_id=_lobby(alice, bob).pk,
        user=alice,
    )
    lobby = _lobby(alice, charlie)
    message = chat_post(user=alice, text="hello", lobby_id=lobby.pk)
    return {
        "lobby_id": lobby.pk,
        "game_id": game.pk,
        "seat_index": 1,
        "message_id": message.pk,
        "user_id": alice.pk,
        "username": "alice",
        "pk": lobby.pk,
        "action": "close_lobby",
    }


def _lobby(host, *others):
    lobby = services.lobby_create(host=host, name="Table", seat_count=3)
    for user in others:
        services.lobby_join(lobby_id=lobby.pk, user=user)
    return lobby


def _tried_routes():
    for route in _routes():
        if route.startswith("admin/") or "(?P<" in route or "static" in route:
            continue
        own = ("register", "settings", "password_change")
        if route.startswith("accounts/") and not any(word in route for word in own):
            continue  # Django's own log-in, log-out and password reset forms
        yield route


FORM = {
    "name": "Taken over",
    "seat_count": "8",
    "end_score": "10",
    "bots": "7",
    "level": "easy",
    "on": "0",
    "text": "spam",
    "reason": "spam",
    "target": "game",
    "email": "evil@example.com",
    "bio": "pwned",
    "language": "de",
    "old_password": "x",
    "new_password1": "n3w-Passw0rd!",
    "new_password2": "n3w-Passw0rd!",
}


def test_a_visitor_who_is_not_logged_in_changes_nothing(world, settings):
    settings.RATELIMIT_ENABLE = False
    before = _everything()
    client = Client()
    tried = 0
    for route in _tried_routes():
        path = _path(route, world)
        for method in ("get", "post"):
            response = getattr(client, method)(path, FORM)
            if route in OPEN:
                continue  # pages anyone reads (a POST gets the page), registering
            assert response.status_code in (302, 403, 404, 405), (method, path)
            if response.status_code == 302:
                assert response["Location"].startswith("/accounts/login/"), (method, path)
            tried += 1
    assert tried >= 40
    assert _everything() == before


def test_a_banned_player_changes_nothing_and_is_logged_out(world, alice, settings):
    settings.RATELIMIT_ENABLE = False
    alice.ban("cheating")  # the host of both tables, seated in the running game
    before = _everything()
    tried = 0
    for route in _tried_routes():
        path = _path(route, world)
        for method in ("get", "post"):
            client = Client()
            client.force_login(alice)
            response = getattr(client, method)(path, FORM)
            assert response.status_code == 302, (method, path)
            assert response["Location"] == "/", (method, path)
            assert "_auth_user_id" not in client.session, (method, path)
            tried += 1
    assert tried >= 40
    assert _everything() == before
