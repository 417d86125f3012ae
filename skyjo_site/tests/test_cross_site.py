"""Requests from another site: every POST of every page is refused without the CSRF token
(403, nothing written), and no socket opens from a page of another origin. The URLs are read
from the URL conf, so that an endpoint added later is tried too."""

import re

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from games import services
from games.models import Lobby, Seat
from skyjo_site.asgi import application

pytestmark = pytest.mark.django_db


def _routes(patterns=None, prefix=""):
    """Every route of the URL conf as a path, each converter filled with a plausible value."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            yield route


def _path(route: str, ids: dict) -> str:
    route = route.lstrip("^").rstrip("$").replace("\\Z", "")

    def fill(match):
        kind, name = match.group(1) or "str", match.group(2)
        return str(ids.get(name, 1 if kind == "id" else "alice"))

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", fill, route)


# POSTs that carry their own proof instead of the CSRF token: an e-mail's one-click unsubscribe
# (RFC 8058: the mail client posts without a token; the signed token in the URL is the proof,
# its forged, expired and used links are refused in notifications/tests/test_pages.py).
SIGNED = {"notifications/unsubscribe/<str:token>/"}


def test_every_post_without_the_csrf_token_is_refused(alice, bob, caplog):
    lobby = services.lobby_create(host=alice, name="Table")
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    ids = {"lobby_id": lobby.pk, "seat_index": 1, "username": "bob", "user_id": bob.pk}
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    client.get("/lobbies/")  # the browser holds the CSRF cookie; another site cannot read it
    assert "csrftoken" in client.cookies
    tried = 0
    for route in _routes():
        if route.startswith("admin/") and route != "admin/login/":
            continue  # Django's own, csrf_protect'ed per view; its log-in stands for them
        if "(?P<" in route or "static" in route or route in SIGNED:
            continue
        path = _path(route, ids)
        caplog.clear()
        response = client.post(path, {"name": "Evil", "seat_count": "8", "on": "0"})
        assert response.status_code == 403, (path, response.status_code)
        assert any("CSRF token missing" in r.getMessage() for r in caplog.records), path
        tried += 1
    assert tried >= 30
    lobby.refresh_from_db()
    assert lobby.status == Lobby.Status.OPEN and lobby.name == "Table"
    assert list(Seat.objects.filter(lobby=lobby).values_list("user", flat=True)) == [
        alice.pk,
        bob.pk,
        None,
        None,
    ]
    assert Lobby.objects.count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_no_socket_opens_from_a_page_of_another_origin(alice, bob):
    from asgiref.sync import sync_to_async

    from games.tests.helpers import start_game

    game = await sync_to_async(start_game)(alice, bob)
    client = Client()
    await sync_to_async(client.force_login)(alice)
    cookie = (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())
    lobby_id = await sync_to_async(lambda: game.lobby_id)()
    for path in (f"/ws/games/{game.pk}/?format=json", "/ws/lobbies/", f"/ws/lobbies/{lobby_id}/"):
        for origin in (b"https://evil.example", b"http://127.0.0.1.evil.example", b"null"):
            comm = WebsocketCommunicator(application, path, headers=[(b"origin", origin), cookie])
            connected, _code = await comm.connect(timeout=5)
            assert not connected, (path, origin)
        own = WebsocketCommunicator(
            application, path, headers=[(b"origin", b"http://127.0.0.1"), cookie]
        )
        assert (await own.connect(timeout=5))[0], path
        await own.disconnect()
