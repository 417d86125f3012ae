"""Web Push (docs/notifications.md, "Web Push"): a turn or reminder pushed to each browser the
player subscribed, through pywebpush (VAPID, RFC 8292; the payload encrypted as RFC 8291 asks).
Offered only when both VAPID keys are set. A push service's 404 or 410 (the subscription is
gone) deletes the subscription; any other failure is noted on it and logged, never raised."""

import json
import logging
from datetime import timedelta
from email.utils import parseaddr

import requests
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from py_vapid import Vapid
from py_vapid.utils import b64urlencode
from pywebpush import WebPushException, webpush

from core.text import one_line
from core.when import when
from notifications.models import Outbox, PushSubscription

log = logging.getLogger(__name__)

TIMEOUT = 5  # seconds for a push service to answer (the bot runner waits for it)
TTL_MAX = timedelta(days=28)  # the longest a push service is asked to keep a push
TTL_DEFAULT = timedelta(days=1)  # without a deadline
GONE = (404, 410)  # the push service's answers for a subscription that no longer exists


def offered() -> bool:
    """Whether the site offers Web Push: both VAPID keys are set."""
    return bool(settings.SKYJO_VAPID_PUBLIC_KEY and settings.SKYJO_VAPID_PRIVATE_KEY)


def notice(row: Outbox, game) -> dict:
    """What a turn or reminder row pushes, in the active language: a title, a body and the game
    page's path (what the e-mail's subject says, and the deadline; no card of the game)."""
    name = game.lobby.name
    if row.kind == Outbox.Kind.REMINDER:
        title = format_lazy(_("Time is running out in {name}"), name=name)
    else:
        title = format_lazy(_("Your turn in {name}"), name=name)
    if row.deadline:
        body = format_lazy(_("Play before {deadline}."), deadline=when(row.deadline))
    else:
        body = _("A correspondence game waits for your move.")
    path = reverse("games:game", args=[game.pk])
    return {"title": one_line(str(title)), "body": str(body), "url": path, "tag": f"game-{game.pk}"}


def send(*, user_id: int, data: dict, deadline=None, now=None) -> int:
    """Push ``data`` (JSON) to each subscription of the player; returns how many push services
    took it. The push services keep it until ``deadline`` (TTL_DEFAULT without one)."""
    if not offered():
        return 0
    now = now or timezone.now()
    subscriptions = list(PushSubscription.objects.filter(user_id=user_id))
    if not subscriptions:
        return 0
    keep = (deadline - now) if deadline else TTL_DEFAULT
    ttl = int(min(max(keep, timedelta(minutes=1)), TTL_MAX).total_seconds())
    body = json.dumps(data, ensure_ascii=False)
    with requests.Session() as session:
        session.max_redirects = 0  # the server posts to the endpoint given, nowhere else
        return sum(_push(sub, body, ttl, session, now) for sub in subscriptions)


def _push(sub: PushSubscription, body: str, ttl: int, session, now) -> int:
    info = {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}
    try:
        webpush(
            subscription_info=info,
            data=body,
            vapid_private_key=Vapid.from_string(settings.SKYJO_VAPID_PRIVATE_KEY),
            vapid_claims={"sub": subject()},  # a new dict: webpush adds aud and exp to it
            ttl=ttl,
            timeout=TIMEOUT,
            requests_session=session,
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in GONE:
            PushSubscription.objects.filter(pk=sub.pk).delete()
            log.info("notifications: push subscription %s is gone (%s): deleted", sub.pk, status)
            return 0
        return _failed(sub, f"HTTP {status}: {exc}" if status else str(exc))
    except OSError as exc:  # requests' errors: no answer, a refused connection, a redirect
        return _failed(sub, f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # a bug, or a key pywebpush refuses: never the e-mail's failure
        log.exception("notifications: push subscription %s could not be pushed", sub.pk)
        return _failed(sub, repr(exc))
    PushSubscription.objects.filter(pk=sub.pk).update(last_pushed_at=now, last_error="")
    return 1


def _failed(sub: PushSubscription, error: str) -> int:
    error = one_line(error)[:500]
    PushSubscription.objects.filter(pk=sub.pk).update(last_error=error)
    log.warning("notifications: push subscription %s failed: %s", sub.pk, error)
    return 0


def make_keys() -> tuple[str, str]:
    """A new VAPID key pair ``(public, private)``: a P-256 key's public point (65 bytes, what
    browsers take as applicationServerKey) and private number (32 bytes), in base64url."""
    key = ec.generate_private_key(ec.SECP256R1())
    point = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    private = key.private_numbers().private_value.to_bytes(32, "big")
    return b64urlencode(point), b64urlencode(private)


def subject() -> str:
    """The VAPID contact: SKYJO_VAPID_SUBJECT, else DEFAULT_FROM_EMAIL's address as mailto:."""
    return settings.SKYJO_VAPID_SUBJECT or "mailto:" + parseaddr(settings.DEFAULT_FROM_EMAIL)[1]
