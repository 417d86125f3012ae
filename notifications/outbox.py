"""Sending the outbox (the bot runner's hooks, web.runner): :func:`send_due` sends the rows due,
at most once each, for one indexed query when nothing is due; :func:`digest_tick` queues the
daily digests, looking once an hour. Call them outside a transaction: a claim must be committed
before the mail server hears of the row (docs/notifications.md, "At most once")."""

import logging
from datetime import timedelta
from typing import NamedTuple

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.db.models import F
from django.utils import timezone, translation

from core.text import one_line
from core.when import zone_of
from notifications import content, push, selectors
from notifications.models import Outbox

log = logging.getLogger(__name__)

BATCH = 20  # rows sent per call at most
MAX_ATTEMPTS = 5  # tries before a row is failed
BACKOFF = timedelta(minutes=1)  # before the second try; doubled after each failure
CLAIM = timedelta(minutes=5)  # a row left `sending` this long was cut off: failed, not resent
DIGEST_HOUR = 7  # a player's daily digest is queued from this hour on, in their time zone
KEEP = timedelta(days=30)  # rows done (sent, failed, skipped) are deleted after this

_digest_hour = None  # the hour in which the runner last looked for digests to queue


def send_due(now=None, limit: int = BATCH) -> int:
    """Send the pending rows due at ``now``; returns how many were sent. Each row is claimed
    (``sending``, committed) before the mail backend is called, and marked ``sent`` after; a
    row found ``sending`` past its claim (the process died mid-send) becomes ``failed``, never
    sent again. A mail server error puts it back to ``pending`` with a doubled delay, failed
    after MAX_ATTEMPTS tries."""
    if not settings.SKYJO_NOTIFICATIONS:
        return 0
    now = now or timezone.now()
    sent = 0
    for row in selectors.due(now, limit):
        if row.state == Outbox.State.SENDING:
            _cut_off(row)
        elif _claim(row, now):
            sent += _send(row, now)
    return sent


def _claim(row: Outbox, now) -> bool:
    """Take ``row`` for this process (a conditional update: one taker among processes)."""
    claimed = Outbox.objects.filter(
        pk=row.pk, state=Outbox.State.PENDING, next_try_at=row.next_try_at
    ).update(state=Outbox.State.SENDING, attempts=F("attempts") + 1, next_try_at=now + CLAIM)
    row.attempts += 1
    return bool(claimed)


def _cut_off(row: Outbox) -> None:
    note = "Cut off while sending (a restart?): it may have gone out, so it is not sent again."
    Outbox.objects.filter(pk=row.pk, state=Outbox.State.SENDING).update(
        state=Outbox.State.FAILED, last_error=note
    )
    log.warning("notifications: outbox row %s was cut off while sending", row.pk)


class Pushed(NamedTuple):
    """A turn or reminder pushed to a device of a player without an e-mail address."""

    title: str
    body: str


def _send(row: Outbox, now) -> int:
    try:
        message = _message(row)
    except Exception as exc:  # a bug in rendering: failed, not retried for ever
        log.exception("notifications: outbox row %s could not be written", row.pk)
        _finish(row, Outbox.State.FAILED, error=one_line(repr(exc))[:500])
        return 0
    if isinstance(message, str):
        _finish(row, Outbox.State.SKIPPED, error=message)
        return 0
    if isinstance(message, Pushed):
        note = "Pushed only: the player has no e-mail address."
        sent = {"sent_at": timezone.now(), "subject": message.title[:200], "body": message.body}
        _finish(row, Outbox.State.SENT, error=note, **sent)
        return 1
    try:
        message.send()
    except OSError as exc:  # smtplib's errors included
        _retry(row, now, exc)
        return 0
    _finish(
        row,
        Outbox.State.SENT,
        sent_at=timezone.now(),
        subject=message.subject[:200],
        body=message.body,
    )
    return 1


def _message(row: Outbox) -> mail.EmailMessage | Pushed | str:
    """The e-mail of ``row`` in its language and the player's time zone, or why it is no longer
    sent. A turn or reminder is pushed to the player's devices here too, on the row's first
    claim only (a retry of the e-mail pushes nothing again); a player without an e-mail address
    gets :class:`Pushed` if a device took it."""
    user = row.user
    pref = selectors.preference_of(user.pk)
    if not user.is_active or not (user.email or row.kind != Outbox.Kind.DIGEST):
        return "The player has no e-mail address now."
    if not _wanted(pref, row.kind):
        return "The player turned this kind of e-mail off."
    with (
        translation.override(row.language or settings.LANGUAGE_CODE),
        timezone.override(zone_of(user)),
    ):
        if row.kind == Outbox.Kind.DIGEST:
            made = content.digest_mail(row, generation=pref.token_generation)
        elif not selectors.waits_for(game_id=row.game_id, user_id=user.pk):
            return "The game no longer waits for the player."
        elif row.kind == Outbox.Kind.TURN and selectors.page_open(
            game_id=row.game_id, user_id=user.pk
        ):
            return "The player has the game's page open."
        else:
            game = selectors.game_with_lobby(row.game_id)
            pushed = _push(row, game)
            if not user.email:
                return pushed or "The player has no e-mail address now."
            made = content.game_mail(row, game, generation=pref.token_generation)
    if made is None:
        return "No game waits for the player now."
    subject, body, headers = made
    return mail.EmailMessage(one_line(subject), body, None, [user.email], headers=headers)


def _push(row: Outbox, game) -> Pushed | None:
    """Push the turn or reminder of ``row`` on its first claim; what was pushed, if a device
    took it."""
    if row.attempts != 1:
        return None
    data = push.notice(row, game)
    if not push.send(user_id=row.user_id, data=data, deadline=row.deadline):
        return None
    return Pushed(data["title"], data["body"])


def _wanted(pref, kind: str) -> bool:
    if kind == Outbox.Kind.TURN:
        return pref.turn_email and not pref.digest
    if kind == Outbox.Kind.REMINDER:
        return pref.reminder_email
    return pref.digest


def _retry(row: Outbox, now, exc: OSError) -> None:
    error = one_line(f"{type(exc).__name__}: {exc}")[:500]
    if row.attempts >= MAX_ATTEMPTS:
        _finish(row, Outbox.State.FAILED, error=error)
        log.warning("notifications: outbox row %s failed %s times: %s", row.pk, row.attempts, error)
        return
    delay = BACKOFF * 2 ** (row.attempts - 1)
    _finish(row, Outbox.State.PENDING, error=error, next_try_at=now + delay)


def _finish(row: Outbox, state: str, *, error: str = "", **values) -> None:
    Outbox.objects.filter(pk=row.pk, state=Outbox.State.SENDING).update(
        state=state, last_error=error, **values
    )


def digest_tick(now=None) -> int:
    """Queue the day's digest for each player who chose it and for whom a game waits, from
    DIGEST_HOUR on in the player's time zone (a row per player and local day: another call
    that day queues none); returns how many rows it offered. Without ``now`` (the runner) it
    looks once an hour per process, and deletes the rows done more than KEEP ago."""
    global _digest_hour
    if not settings.SKYJO_NOTIFICATIONS:
        return 0
    runner = now is None
    now = now or timezone.now()
    hour = now.replace(minute=0, second=0, microsecond=0)
    if runner and _digest_hour == hour:
        return 0
    users = (
        get_user_model()
        .objects.filter(pk__in=selectors.digest_users())
        .exclude(email="")
        .only("pk", "language", "time_zone")
    )
    rows = []
    for user in users:
        local = timezone.localtime(now, zone_of(user))
        if local.hour >= DIGEST_HOUR:
            rows.append(
                Outbox(
                    user=user,
                    kind=Outbox.Kind.DIGEST,
                    dedup_key=f"digest:{user.pk}:{local.date().isoformat()}",
                    language=user.language or settings.LANGUAGE_CODE,
                    next_try_at=now,
                    created_at=now,
                )
            )
    Outbox.objects.bulk_create(rows, ignore_conflicts=True)
    if runner:
        _digest_hour = hour
        purge(now - KEEP)
    return len(rows)


def purge(before) -> int:
    """Delete the rows done (sent, failed, skipped) created before ``before``; returns how many.
    The quiet time and the dedup keys look at recent rows only."""
    done = [Outbox.State.SENT, Outbox.State.FAILED, Outbox.State.SKIPPED]
    deleted, _kinds = Outbox.objects.filter(state__in=done, created_at__lt=before).delete()
    return deleted
