"""Web Push: the subscribe and unsubscribe doors refuse what they should and save nothing then;
the outbox pushes a turn to a real (local) push endpoint, encrypted for the browser's keys and
signed with the site's VAPID key, once per row; a subscription gone (410) is deleted."""

import base64
import json
import os
import socket
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from py_vapid import Vapid

from games import signals
from notifications import outbox, push
from notifications.models import Outbox, PushSubscription
from notifications.tests.conftest import wait

pytestmark = pytest.mark.django_db
HERE = "notifications.tests.test_push"
SUBSCRIBE = "/notifications/push/subscribe/"
UNSUBSCRIBE = "/notifications/push/unsubscribe/"


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Browser:
    """A browser's push keys: a P-256 key pair and a 16-byte auth secret."""

    def __init__(self, endpoint: str):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint

    def subscription(self) -> dict:
        """What PushSubscription.toJSON() gives."""
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        keys = {"p256dh": b64(point), "auth": b64(self.auth)}
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": keys}

    def read(self, body: bytes) -> dict:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth)
        return json.loads(plain)


class PushService:
    """A push endpoint on a local port: it keeps each request and answers ``status``."""

    def __init__(self):
        self.received = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                headers = {name.lower(): value for name, value in self.headers.items()}
                service.received.append((self.path, headers, body))
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.01,), daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(autouse=True)
def vapid(settings):
    """The site's VAPID keys, freshly made; local endpoints allowed (the push service here)."""
    public, private = push.make_keys()
    settings.SKYJO_VAPID_PUBLIC_KEY = public
    settings.SKYJO_VAPID_PRIVATE_KEY = private
    settings.SKYJO_VAPID_SUBJECT = "mailto:admin@skyjo.example"
    settings.SKYJO_PUSH_INSECURE_ENDPOINTS = True
    return public


@pytest.fixture
def service():
    service = PushService()
    yield service
    service.close()


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _post(client: Client, url: str, data) -> dict:
    body = data if isinstance(data, str | bytes) else json.dumps(data)
    return client.post(url, body, content_type="application/json")


# The doors ----------------------------------------------------------------------------------


def test_a_valid_subscription_is_saved(alice):
    browser = Browser("https://push.example.net/send/abc")
    answer = _post(_client(alice), SUBSCRIBE, browser.subscription())
    assert answer.status_code == 200 and answer.json() == {"ok": True}
    sub = PushSubscription.objects.get()
    keys = browser.subscription()["keys"]
    assert (sub.user, sub.endpoint, sub.p256dh, sub.auth) == (
        alice,
        browser.endpoint,
        keys["p256dh"],
        keys["auth"],
    )


def test_a_second_subscribe_of_an_endpoint_updates_it(alice, bob):
    first = Browser("https://push.example.net/send/abc")
    _post(_client(alice), SUBSCRIBE, first.subscription())
    again = Browser(first.endpoint)  # new keys, the same endpoint: now bob's browser
    assert _post(_client(bob), SUBSCRIBE, again.subscription()).status_code == 200
    sub = PushSubscription.objects.get()
    assert sub.user == bob and sub.auth == again.subscription()["keys"]["auth"]


def test_the_anonymous_are_refused(db):
    answer = _post(Client(), SUBSCRIBE, Browser("https://push.example.net/x").subscription())
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "login_required"
    assert not PushSubscription.objects.exists()


def test_a_post_without_the_csrf_token_is_refused(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    answer = _post(client, SUBSCRIBE, Browser("https://push.example.net/x").subscription())
    assert answer.status_code == 403 and not PushSubscription.objects.exists()


def _bad(subscription: dict, **changes) -> dict:
    keys = {**subscription["keys"], **changes.pop("keys", {})}
    return {**subscription, **changes, "keys": keys}


GOOD = Browser("https://push.example.net/send/abc").subscription()
OFF_CURVE = b64(b"\x04" + b"\x01" * 64)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("not json", "bad_request"),
        ("[1, 2]", "bad_request"),
        (_bad(GOOD, endpoint=None), "invalid_push_subscription"),
        (
            _bad(GOOD, endpoint="https://push.example.net/" + "x" * 1000),
            "invalid_push_subscription",
        ),
        (_bad(GOOD, endpoint="ftp://push.example.net/x"), "invalid_push_subscription"),
        (_bad(GOOD, endpoint="https:///x"), "invalid_push_subscription"),
        (_bad(GOOD, keys={"p256dh": b64(b"\x04" * 33)}), "invalid_push_subscription"),
        (_bad(GOOD, keys={"p256dh": OFF_CURVE}), "invalid_push_subscription"),
        (_bad(GOOD, keys={"p256dh": "not base64!"}), "invalid_push_subscription"),
        (_bad(GOOD, keys={"auth": b64(b"\x00" * 8)}), "invalid_push_subscription"),
        ({"endpoint": GOOD["endpoint"]}, "invalid_push_subscription"),
    ],
)
def test_bad_input_is_a_400_and_saves_nothing(alice, body, code):
    answer = _post(_client(alice), SUBSCRIBE, body)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == code and error["message"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    ["http://push.example.net/x", "https://127.0.0.1/x", "https://[::1]/x", "https://pushhost/x"],
)
def test_in_production_only_https_push_services_are_taken(settings, alice, endpoint):
    settings.SKYJO_PUSH_INSECURE_ENDPOINTS = False
    answer = _post(_client(alice), SUBSCRIBE, _bad(GOOD, endpoint=endpoint))
    assert answer.status_code == 400 and not PushSubscription.objects.exists()


def test_without_keys_push_is_not_offered(settings, alice):
    settings.SKYJO_VAPID_PUBLIC_KEY = settings.SKYJO_VAPID_PRIVATE_KEY = ""
    client = _client(alice)
    answer = _post(client, SUBSCRIBE, GOOD)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "push_unavailable"
    page = client.get("/notifications/settings/").content.decode()
    assert "push-settings" not in page and "push.js" not in page


def test_the_settings_page_offers_the_device_button_with_the_key(vapid, alice):
    page = _client(alice).get("/notifications/settings/").content.decode()
    assert f'data-vapid-key="{vapid}"' in page and "js/push.js" in page
    assert "Notify me on this device" in page


def test_unsubscribe_deletes_only_the_players_own(alice, bob):
    mine = Browser("https://push.example.net/alice").subscription()
    theirs = Browser("https://push.example.net/bob").subscription()
    _post(_client(alice), SUBSCRIBE, mine)
    _post(_client(bob), SUBSCRIBE, theirs)
    assert _post(_client(alice), UNSUBSCRIBE, {"endpoint": theirs["endpoint"]}).status_code == 200
    assert PushSubscription.objects.count() == 2
    assert _post(_client(alice), UNSUBSCRIBE, {"endpoint": mine["endpoint"]}).status_code == 200
    assert list(PushSubscription.objects.values_list("user", flat=True)) == [bob.pk]
    assert _post(Client(), UNSUBSCRIBE, {"endpoint": theirs["endpoint"]}).status_code == 403
    assert _post(_client(bob), UNSUBSCRIBE, "[]").status_code == 400
    assert PushSubscription.objects.count() == 1


def test_logging_out_stops_the_pushes_to_that_browser_only(alice):
    here = _client(alice)
    elsewhere = _client(alice)
    _post(here, SUBSCRIBE, Browser("https://push.example.net/here").subscription())
    _post(elsewhere, SUBSCRIBE, Browser("https://push.example.net/phone").subscription())
    page = here.get("/notifications/settings/").content.decode()
    assert "https://push.example.net/here" in page and "https://push.example.net/phone" in page
    assert here.post("/accounts/logout/").status_code == 302
    endpoints = list(PushSubscription.objects.values_list("endpoint", flat=True))
    assert endpoints == ["https://push.example.net/phone"]


def test_unsubscribing_another_endpoint_keeps_this_browsers_for_the_log_out(alice):
    here = _client(alice)
    _post(here, SUBSCRIBE, Browser("https://push.example.net/here").subscription())
    _post(_client(alice), SUBSCRIBE, Browser("https://push.example.net/old").subscription())
    assert _post(here, UNSUBSCRIBE, {"endpoint": "https://push.example.net/old"}).status_code == 200
    assert here.post("/accounts/logout/").status_code == 302
    assert not PushSubscription.objects.exists()


def test_a_player_keeps_the_newest_devices(alice):
    client = _client(alice)
    for n in range(12):
        _post(client, SUBSCRIBE, _bad(GOOD, endpoint=f"https://push.example.net/{n}"))
    endpoints = set(PushSubscription.objects.values_list("endpoint", flat=True))
    assert len(endpoints) == 10 and "https://push.example.net/11" in endpoints


# Sending ------------------------------------------------------------------------------------


def _subscribe(user, service: PushService, name: str = "device") -> Browser:
    browser = Browser(f"{service.origin}/push/{name}")
    assert _post(_client(user), SUBSCRIBE, browser.subscription()).status_code == 200
    return browser


def test_a_turn_is_pushed_encrypted_and_signed(vapid, service, game, bob):
    browser = _subscribe(bob, service)
    deadlines = wait(game, bob)
    assert outbox.send_due() == 1
    assert len(mail.outbox) == 1  # the e-mail goes too
    [(path, headers, body)] = service.received
    assert path == "/push/device"
    assert headers["content-encoding"] == "aes128gcm"
    ttl = int(headers["ttl"])
    assert 0 < ttl <= (deadlines[bob.pk] - timezone.now()).total_seconds() + 1
    auth = headers["authorization"]
    assert auth.startswith("vapid t=") and f"k={vapid}" in auth
    assert Vapid.verify(auth)  # signed with the site's key
    claims = json.loads(base64.urlsafe_b64decode(auth.split("t=")[1].split(".")[1] + "=="))
    assert claims["aud"] == service.origin and claims["sub"] == "mailto:admin@skyjo.example"
    payload = browser.read(body)
    assert set(payload) == {"title", "body", "url", "tag"}  # nothing of the cards
    assert payload["title"] == "Your turn in Test table"
    assert payload["url"] == reverse("games:game", args=[game.pk])
    assert payload["body"].startswith("Play before ")
    sub = PushSubscription.objects.get()
    assert sub.last_pushed_at is not None and sub.last_error == ""


def test_the_push_is_in_the_players_language(service, game, bob):
    bob.language = "de"
    bob.save(update_fields=["language"])
    browser = _subscribe(bob, service)
    wait(game, bob, signal=signals.turn_reminder)
    outbox.send_due()
    payload = browser.read(service.received[0][2])
    assert payload["title"] == "Die Zeit wird knapp in Test table"


def test_a_gone_subscription_is_deleted_and_the_mail_still_goes(service, game, bob):
    _subscribe(bob, service)
    service.status = 410
    wait(game, bob)
    assert outbox.send_due() == 1
    assert len(service.received) == 1 and len(mail.outbox) == 1
    assert not PushSubscription.objects.exists()
    assert Outbox.objects.get().state == "sent"


def test_a_failing_push_service_is_noted_and_the_mail_still_goes(service, game, bob):
    _subscribe(bob, service)
    service.status = 500
    wait(game, bob)
    assert outbox.send_due() == 1 and len(mail.outbox) == 1
    assert "500" in PushSubscription.objects.get().last_error


def test_a_push_service_that_does_not_answer_fails_nothing(game, bob):
    with socket.socket() as closed:  # a port that nothing listens on once it is closed
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    browser = Browser(f"http://127.0.0.1:{port}/push")
    _post(_client(bob), SUBSCRIBE, browser.subscription())
    wait(game, bob)
    assert outbox.send_due() == 1 and len(mail.outbox) == 1
    assert "ConnectionError" in PushSubscription.objects.get().last_error


def test_a_retried_mail_does_not_push_again(settings, service, game, bob):
    _subscribe(bob, service)
    settings.EMAIL_BACKEND = "notifications.tests.test_outbox.DownBackend"
    wait(game, bob)
    now = timezone.now()
    assert outbox.send_due(now=now) == 0
    assert len(service.received) == 1
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert outbox.send_due(now=now + timedelta(minutes=1)) == 1
    assert len(service.received) == 1 and len(mail.outbox) == 1


def test_a_player_without_an_address_gets_the_push_only(service, game, bob):
    bob.email = ""
    bob.save(update_fields=["email"])
    browser = _subscribe(bob, service)
    wait(game, bob)
    assert outbox.send_due() == 1
    assert mail.outbox == []
    assert browser.read(service.received[0][2])["title"] == "Your turn in Test table"
    row = Outbox.objects.get()
    assert (row.state, row.subject) == ("sent", "Your turn in Test table")
    assert row.last_error.startswith("Pushed only")


def test_without_keys_nothing_is_pushed(settings, service, game, bob):
    _subscribe(bob, service)
    settings.SKYJO_VAPID_PUBLIC_KEY = settings.SKYJO_VAPID_PRIVATE_KEY = ""
    wait(game, bob)
    assert outbox.send_due() == 1 and len(mail.outbox) == 1
    assert service.received == []


# The pieces around ---------------------------------------------------------------------------


def test_the_key_command_prints_a_pair_that_signs(capsys):
    call_command("make_vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    public, private = lines["SKYJO_VAPID_PUBLIC_KEY"], lines["SKYJO_VAPID_PRIVATE_KEY"]
    assert len(base64.urlsafe_b64decode(public + "==")) == 65
    key = Vapid.from_string(private)
    point = key.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    assert b64(point) == public


def test_the_service_worker_shows_pushes_and_opens_their_game(db):
    script = Client().get("/sw.js").content.decode()
    assert 'addEventListener("push"' in script and "showNotification" in script
    assert 'addEventListener("notificationclick"' in script and "openWindow" in script
