"""Bans, warnings, languages, time zones and ratings of users. Each ban or warning write
locks the user's row and returns whether anything changed."""

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from core.locks import hold
from core.when import when, zone_named

MAX_REASON = User._meta.get_field("ban_reason").max_length


def user_ban(*, user_id: int, reason: str = "", until=None, moderator=None) -> bool:
    """Ban a player with a ``reason``, until ``until`` (``None``: for good); not oneself."""
    if moderator is not None and moderator.pk == user_id:
        return False
    reason = (reason or "").strip()[:MAX_REASON]
    with transaction.atomic():
        user = hold(User.objects.filter(pk=user_id)).first()
        if user is None or (
            user.is_banned and user.ban_reason == reason and user.banned_until == until
        ):
            return False
        user.ban(reason, until)
    return True


def user_unban(*, user_id: int) -> bool:
    """Lift a ban."""
    with transaction.atomic():
        user = hold(User.objects.filter(pk=user_id)).first()
        if user is None or not user.is_banned:
            return False
        user.unban()
    return True


def user_warn(*, user_id: int, reason: str) -> bool:
    """Give a player a moderator's warning to read (it replaces one they have not read)."""
    reason = (reason or "").strip()[:MAX_REASON]
    with transaction.atomic():
        user = hold(User.objects.filter(pk=user_id)).first()
        if user is None or not reason or user.warning == reason:
            return False
        user.warning = reason
        user.save(update_fields=["warning"])
    return True


def user_warning_read(*, user_id: int) -> bool:
    """The player has read their warning: it is no longer shown."""
    return bool(User.objects.filter(pk=user_id).exclude(warning="").update(warning=""))


def ban_in_force(user) -> bool:
    """Whether ``user`` is banned now; a ban whose time is up is lifted here."""
    if not user.is_banned:
        return False
    if not user.ban_has_ended:
        return True
    with transaction.atomic():
        row = hold(User.objects.filter(pk=user.pk)).first()
        if row is not None and row.ban_has_ended:
            row.unban()
    user.refresh_from_db(fields=User.BAN_FIELDS)
    return user.is_banned


def ban_message(user) -> str:
    """What a banned player reads: the moderator's reason, and when a ban for a time ends."""
    until = user.banned_until and when(user.banned_until)
    values = {"reason": user.ban_reason or _("no reason given"), "until": until}
    if until is None:
        return _("This account is banned: %(reason)s") % values
    return _("This account is banned until %(until)s: %(reason)s") % values


def user_set_time_zone(*, user_id: int, name: str) -> None:
    """Remember the time zone called ``name`` ("Europe/Oslo") as the player's."""
    if zone_named(name) is None:
        raise ValueError(f"unknown time zone {name!r}")
    User.objects.filter(pk=user_id).update(time_zone=name)


def user_set_language(*, user_id: int, language: str) -> None:
    """Remember ``language`` (of settings.LANGUAGES, "": the browser's) as the player's."""
    if language and language not in dict(settings.LANGUAGES):
        raise ValueError(f"unknown language {language!r}")
    User.objects.filter(pk=user_id).update(language=language)


def user_ratings_update(*, user_ids, rate, kind: str = "live") -> list[tuple[object, float, float]]:
    """Lock the users ``user_ids`` in id order and write the ``(mu, sigma)`` that
    ``rate(users)`` returns for each into their ``kind`` rating ("live" or "correspondence",
    ``User.RATING_FIELDS``); ``rate`` reads that rating's fields. Returns (user, mu before,
    sigma before) per user."""
    mu_field, sigma_field, games_field = User.RATING_FIELDS[kind]
    users = list(hold(User.objects.filter(pk__in=user_ids)).order_by("pk"))
    changes = []
    for user, (mu, sigma) in zip(users, rate(users), strict=True):
        changes.append((user, getattr(user, mu_field), getattr(user, sigma_field)))
        setattr(user, mu_field, mu)
        setattr(user, sigma_field, sigma)
        setattr(user, games_field, getattr(user, games_field) + 1)
    User.objects.bulk_update(users, [mu_field, sigma_field, games_field])
    return changes
