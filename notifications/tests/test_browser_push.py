"""In real Chromium: the settings page's "Notify me on this device" subscribes with the site's
VAPID key through the service worker and posts the subscription; the other button turns it
off; logging out stops the pushes to that browser, and the next player there sees them off. Chromium here has no push service, so the browser's PushManager answers with a
subscription made in the test (real keys); all the rest is the page's own script."""

import base64
import json

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from conftest import PASSWORD
from games.tests.e2e.test_browser_replay import logged_in_context
from notifications import push
from notifications.models import PushSubscription

pytestmark = pytest.mark.e2e

# The browser's subscription outlives the page, as a real one does (in localStorage here).
FAKE_PUSH_MANAGER = """
window.pushKeys = [];
const made = SUBSCRIPTION;
const kept = () => localStorage.getItem("pushKept") ? {
  endpoint: made.endpoint,
  toJSON: () => made,
  unsubscribe: () => { localStorage.removeItem("pushKept"); return Promise.resolve(true); },
} : null;
PushManager.prototype.getSubscription = function () { return Promise.resolve(kept()); };
PushManager.prototype.subscribe = function (options) {
  window.pushKeys = Array.from(new Uint8Array(options.applicationServerKey));
  localStorage.setItem("pushKept", "1");
  return Promise.resolve(kept());
};
"""


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _subscription() -> dict:
    point = ec.generate_private_key(ec.SECP256R1()).public_key()
    p256dh = _b64(point.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
    keys = {"p256dh": p256dh, "auth": _b64(b"0123456789abcdef")}
    return {"endpoint": "https://push.example.net/e2e", "expirationTime": None, "keys": keys}


def test_the_device_button_subscribes_and_unsubscribes(settings, live_server, browser, alice):
    public, private = push.make_keys()
    settings.SKYJO_VAPID_PUBLIC_KEY, settings.SKYJO_VAPID_PRIVATE_KEY = public, private
    context = logged_in_context(browser, live_server.url, alice)
    context.grant_permissions(["notifications"], origin=live_server.url)
    subscription = _subscription()
    context.add_init_script(FAKE_PUSH_MANAGER.replace("SUBSCRIPTION", json.dumps(subscription)))
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(live_server.url + "/notifications/settings/")
    on = page.get_by_role("button", name="Notify me on this device")
    on.click()
    page.get_by_text("Notifications are on for this device.").wait_for()
    assert page.evaluate("window.pushKeys") == list(base64.urlsafe_b64decode(public + "="))
    sub = PushSubscription.objects.get()
    assert (sub.user_id, sub.endpoint, sub.p256dh) == (
        alice.pk,
        subscription["endpoint"],
        subscription["keys"]["p256dh"],
    )
    page.get_by_role("button", name="Stop notifications on this device").click()
    page.get_by_text("Notifications are off for this device.").wait_for()
    assert on.is_visible() and not PushSubscription.objects.exists()
    context.close()
    # live_server serves no websockets: the header's turns socket is refused there, and only.
    errors = [e for e in errors if "/ws/turns/" not in e and e != "[object Event]"]
    assert errors == []


def test_logging_out_stops_the_pushes_and_the_next_player_sees_them_off(
    settings, live_server, browser, alice, bob
):
    public, private = push.make_keys()
    settings.SKYJO_VAPID_PUBLIC_KEY, settings.SKYJO_VAPID_PRIVATE_KEY = public, private
    context = logged_in_context(browser, live_server.url, alice)
    context.grant_permissions(["notifications"], origin=live_server.url)
    context.add_init_script(FAKE_PUSH_MANAGER.replace("SUBSCRIPTION", json.dumps(_subscription())))
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(live_server.url + "/notifications/settings/")
    page.get_by_role("button", name="Notify me on this device").click()
    page.get_by_text("Notifications are on for this device.").wait_for()
    page.reload()  # the browser's subscription is hers: on
    page.get_by_text("Notifications are on for this device.").wait_for()
    page.locator("form[action='/accounts/logout/'] button").first.evaluate("b => b.form.submit()")
    page.wait_for_url(lambda url: "/notifications/" not in url)
    assert not PushSubscription.objects.exists()
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", bob.username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(live_server.url + "/notifications/settings/")
    page.get_by_role("button", name="Notify me on this device").wait_for()  # not his: off
    assert page.evaluate("localStorage.getItem('pushKept')") == "1"
    context.close()
