"""Writes of a player's e-mail preferences: the settings page's, and a one-click unsubscribe."""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from notifications import tokens
from notifications.errors import BadUnsubscribeLink, InvalidPreference, UsedUnsubscribeLink
from notifications.models import QUIET_MAX, Preference

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
