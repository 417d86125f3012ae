"""The receivers of the games signals (connected in apps.py): they queue the e-mails as outbox
rows inside the game step's transaction, so that a step saved is a mail queued, and a step
rolled back queues nothing; a row is also pushed to the player's devices (push.py), so a player
without an e-mail address but with a device subscribed gets one too. SKYJO_NOTIFICATIONS=false:
nothing is queued."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from notifications import push, selectors
from notifications.models import Outbox


def turn_waits(sender, *, game, deadlines: dict, **kwargs) -> None:
    """Queue a "your turn" e-mail for each player of ``deadlines`` who wants one: not for a
    digest reader, nor within their quiet time after another e-mail about this game."""
    _queue(game, deadlines, Outbox.Kind.TURN)


def turn_reminder(sender, *, game, deadlines: dict, **kwargs) -> None:
    """Queue a "time is running out" e-mail for each player of ``deadlines`` who wants one."""
    _queue(game, deadlines, Outbox.Kind.REMINDER)


def _queue(game, deadlines: dict, kind: str) -> None:
    if not settings.SKYJO_NOTIFICATIONS or not deadlines:
        return
    now = timezone.now()
    reachable = ~Q(email="")
    if push.offered():
        reachable |= Q(push_subscriptions__isnull=False)
    users = get_user_model().objects.filter(reachable, pk__in=list(deadlines)).distinct()
    prefs = selectors.preferences_of([u.pk for u in users])
    turn = game.turn_started_at.isoformat() if game.turn_started_at else ""
    rows = [
        Outbox(
            user=user,
            game_id=game.pk,
            kind=kind,
            dedup_key=f"{kind}:{game.pk}:{turn}:{user.pk}",
            deadline=deadlines[user.pk],
            language=user.language or settings.LANGUAGE_CODE,
            next_try_at=now,
            created_at=now,
        )
        for user in users
        if _wanted(prefs[user.pk], kind, game.pk, now)
    ]
    Outbox.objects.bulk_create(rows, ignore_conflicts=True)  # a signal sent twice: one row


def _wanted(pref, kind: str, game_id: int, now) -> bool:
    if kind == Outbox.Kind.REMINDER:
        return pref.reminder_email
    if not pref.turn_email or pref.digest:
        return False
    if not pref.quiet_minutes:
        return True
    since = now - timedelta(minutes=pref.quiet_minutes)
    return not selectors.mailed_lately(user_id=pref.user_id, game_id=game_id, since=since)
