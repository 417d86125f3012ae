"""Writes of a player's notification settings: the e-mail preferences of the settings page, a
one-click unsubscribe, and the browsers' push subscriptions."""

import base64
import binascii
import ipaddress
import re
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from notifications import tokens
from notifications.errors import (
    BadUnsubscribeLink,
    InvalidPreference,
    InvalidPushSubscription,
    PushUnavailable,
    UsedUnsubscribeLink,
)
from notifications.models import QUIET_MAX, Preference, PushSubscription
from notifications.push import offered as push_offered

MAX_DEVICES = 10  # push subscriptions kept per player, the newest
ENDPOINT_MAX = PushSubscription._meta.get_field("endpoint").max_length
BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")

# What a link of each kind turns off (a digest's: the digest, without falling back to one
# e-mail per turn).
TURNS_OFF = {
    "turn": {"turn_email": False},
    "reminder": {"reminder_email": False},
    "digest": {"digest": False, "turn_email": False},
}


def preference_update(
    *, user, turn_email: bool, reminder_email: bool, digest: bool, quiet_minutes: int
) -> Preference:
    """Save the player's choices; ``InvalidPreference`` (nothing saved) for a quiet time that
    is not a whole number of minutes from 0 to QUIET_MAX."""
    if type(quiet_minutes) is not int or not 0 <= quiet_minutes <= QUIET_MAX:
        raise InvalidPreference(
            format_lazy(_("The quiet time is from 0 to {max} minutes."), max=QUIET_MAX)
        )
    values = {
        "turn_email": bool(turn_email),
        "reminder_email": bool(reminder_email),
        "digest": bool(digest),
        "quiet_minutes": quiet_minutes,
    }
    pref, _created = Preference.objects.update_or_create(user_id=user.pk, defaults=values)
    return pref


def unsubscribe(*, token: str) -> tuple[int, str]:
    """Turn off the kind of e-mail of ``token`` for its player and bump their token generation,
    so the link works once; returns ``(user_id, kind)``. A forged, expired or used link raises
    a ``BadUnsubscribeLink`` and changes nothing."""
    user_id, kind, generation = tokens.read(token)
    with transaction.atomic():
        if not get_user_model().objects.filter(pk=user_id).exists():
            raise BadUnsubscribeLink()
        Preference.objects.get_or_create(user_id=user_id)
        changed = Preference.objects.filter(user_id=user_id, token_generation=generation).update(
            token_generation=F("token_generation") + 1, **TURNS_OFF[kind]
        )
        if not changed:
            raise UsedUnsubscribeLink()
    return user_id, kind


def push_subscribe(*, user, endpoint, p256dh, auth) -> PushSubscription:
    """Save a browser's push subscription (its PushSubscription.toJSON() fields) for ``user``;
    an endpoint already known is given the new keys and owner. The player keeps their newest
    MAX_DEVICES. ``PushUnavailable`` without VAPID keys; ``InvalidPushSubscription`` for an
    endpoint that is not an https URL (SKYJO_PUSH_INSECURE_ENDPOINTS: http and local hosts too)
    or keys of the wrong size; nothing saved then."""
    if not push_offered():
        raise PushUnavailable()
    endpoint = _endpoint(endpoint)
    values = {"user_id": user.pk, "p256dh": _key(p256dh, 65), "auth": _key(auth, 16)}
    with transaction.atomic():
        sub, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint, defaults={**values, "created_at": timezone.now(), "last_error": ""}
        )
        kept = PushSubscription.objects.filter(user_id=user.pk).order_by("-created_at", "-pk")
        old = list(kept.values_list("pk", flat=True)[MAX_DEVICES:])
        if old:
            PushSubscription.objects.filter(pk__in=old).delete()
    return sub


def push_unsubscribe(*, user, endpoint) -> int:
    """Delete ``user``'s subscription of ``endpoint`` (another player's is left); returns how
    many were deleted (0 or 1)."""
    if not isinstance(endpoint, str):
        raise InvalidPushSubscription(_("The subscription has no endpoint."))
    deleted, _kinds = PushSubscription.objects.filter(user_id=user.pk, endpoint=endpoint).delete()
    return deleted


def _endpoint(value) -> str:
    """``value`` if it is an endpoint the server may post to."""
    if not isinstance(value, str) or not value or len(value) > ENDPOINT_MAX:
        raise InvalidPushSubscription(_("The subscription's endpoint is missing or too long."))
    url = urlsplit(value)
    insecure = settings.SKYJO_PUSH_INSECURE_ENDPOINTS
    host = url.hostname or ""
    local = "." not in host or _is_address(host)
    if url.scheme not in (("https", "http") if insecure else ("https",)) or not host:
        raise InvalidPushSubscription(_("The subscription's endpoint is not an https address."))
    if local and not insecure:
        raise InvalidPushSubscription(_("The subscription's endpoint is not a push service."))
    return value


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _key(value, size: int) -> str:
    """``value`` if it is base64url of ``size`` bytes (65: a P-256 point, 16: an auth secret)."""
    try:
        if not isinstance(value, str) or not BASE64URL.fullmatch(value):
            raise ValueError
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        if len(raw) != size:
            raise ValueError
        if size == 65:
            ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    except (TypeError, ValueError, binascii.Error):
        raise InvalidPushSubscription(
            _("The subscription's keys are missing or not a browser's keys.")
        ) from None
    return value
