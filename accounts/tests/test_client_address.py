"""The client's address behind the documented proxy (docs/deployment.md), and bad addresses.

Requests here arrive as the documented set-up delivers them to Django: from nginx at
127.0.0.1 (Daphne without ``--proxy-headers``), with ``X-Forwarded-For`` overwritten by nginx
(``$remote_addr``) or, in a set-up that kept nginx's default, appended to
(``$proxy_add_x_forwarded_for``: the client's own header first). ``SKYJO_TRUSTED_PROXIES=1``.
"""

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.urls import reverse

from conftest import PASSWORD
from skyjo_site.client_address import UNKNOWN, client_address, valid_address

pytestmark = pytest.mark.django_db

NGINX = "127.0.0.1"
BAD_VALUES = ["garbage", "1.2.3.4.5", "127.0.0.1:8080", "", " , ", "::ffff:zz", "1.2.3.4/24"]


@pytest.fixture(autouse=True)
def _behind_nginx(settings):
    settings.SKYJO_TRUSTED_PROXIES = 1


def via_nginx(real: str, spoofed: str | None = None) -> dict:
    """What nginx with ``$proxy_add_x_forwarded_for`` sends for a client at ``real`` that
    sent ``X-Forwarded-For: spoofed`` itself."""
    forwarded = f"{spoofed}, {real}" if spoofed else real
    return {"REMOTE_ADDR": NGINX, "HTTP_X_FORWARDED_FOR": forwarded}


def register(client, n: int, **meta):
    data = {
        "username": f"user{n}",
        "email": f"user{n}@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    return client.post(reverse("accounts:register"), data, **meta)


def login(client, username="alice", password=PASSWORD, **meta):
    return client.post(reverse("login"), {"username": username, "password": password}, **meta)


def test_the_address_is_the_one_the_proxy_saw():
    assert client_address(NGINX, "203.0.113.5", 1) == "203.0.113.5"
    assert client_address(NGINX, "198.51.100.1, 203.0.113.5", 1) == "203.0.113.5"
    assert client_address(NGINX, "1.1.1.1, 198.51.100.1, 203.0.113.5", 2) == "198.51.100.1"
    # Fewer entries than proxies: all were written by proxies, the leftmost is the client.
    assert client_address(NGINX, "203.0.113.5", 2) == "203.0.113.5"
    assert client_address(NGINX, "203.0.113.5", 0) == NGINX  # no proxy trusted: no header
    assert client_address("::ffff:203.0.113.5", None, 0) == "203.0.113.5"
    assert client_address(NGINX, "2001:DB8::1", 1) == "2001:db8::1"


@pytest.mark.parametrize("bad", BAD_VALUES)
def test_a_bad_value_falls_back_to_the_peer_or_a_shared_placeholder(bad):
    assert valid_address(bad) is None
    assert client_address(NGINX, bad, 1) == NGINX
    assert client_address(bad, None, 0) == UNKNOWN
    assert client_address(bad, bad, 1) == UNKNOWN


def test_registration_limit_counts_per_real_client_not_per_spoofed_entry(settings):
    """Failed on main: the limit was per proxy (every player shared it), and with Daphne's
    ``--proxy-headers`` per spoofed first entry (never reached)."""
    settings.SKYJO_RATELIMIT_REGISTER = "5/h"
    statuses = [
        register(Client(), n, **via_nginx("203.0.113.5", f"198.51.100.{n}")).status_code
        for n in range(8)
    ]
    assert statuses == [302] * 5 + [429] * 3
    # Another player behind the same proxy has an allowance of their own.
    assert register(Client(), 99, **via_nginx("203.0.113.9")).status_code == 302


def test_failed_logins_count_against_the_real_client(alice):
    for n in range(12):
        login(Client(), password="wrong", **via_nginx("203.0.113.5", f"198.51.100.{n}"))
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"203.0.113.5"}
    response = login(Client(), **via_nginx("203.0.113.5", "198.51.100.200"))
    assert response.status_code == 429
    assert "_auth_user_id" not in Client().session


@pytest.mark.parametrize("bad", BAD_VALUES)
def test_a_bad_address_never_gives_a_server_error(alice, bad):
    """Failed on main with HTTP 500 (ValueError) for garbage, 1.2.3.4.5 and 127.0.0.1:8080:
    Daphne's ``--proxy-headers`` copies the header's text into REMOTE_ADDR."""
    for meta in ({"REMOTE_ADDR": bad}, {"REMOTE_ADDR": NGINX, "HTTP_X_FORWARDED_FOR": bad}):
        client = Client()
        assert login(client, password="wrong", **meta).status_code == 200
        assert register(client, 1, **meta).status_code in (200, 302)
        assert client.post(reverse("logout"), **meta).status_code == 302
        client.force_login(alice)
        assert client.post(reverse("logout"), **meta).status_code == 302


def test_limits_hold_for_clients_with_bad_addresses(settings):
    """All requests without a valid address share one count."""
    settings.SKYJO_RATELIMIT_REGISTER = "5/h"
    statuses = [register(Client(), n, REMOTE_ADDR=BAD_VALUES[n % 3]).status_code for n in range(7)]
    assert statuses == [302] * 5 + [429] * 2


async def test_a_websocket_scope_gets_the_same_address(settings):
    from skyjo_site.client_address import ClientAddressASGIMiddleware

    seen = []

    async def app(scope, receive, send):
        seen.append(scope["client"])

    wrapped = ClientAddressASGIMiddleware(app)
    headers = [(b"x-forwarded-for", b"198.51.100.1, 203.0.113.5"), (b"origin", b"http://x")]
    await wrapped({"type": "websocket", "client": [NGINX, 5000], "headers": headers}, None, None)
    await wrapped({"type": "websocket", "client": ["garbage", 0], "headers": []}, None, None)
    assert seen == [["203.0.113.5", 5000], [UNKNOWN, 0]]
