"""Sending the outbox: once, in the player's language, retried when the mail server fails,
never twice after a restart; the daily digest."""

import smtplib
from datetime import UTC, timedelta

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import timezone

from core import when as core_when
from games import signals
from games.models import GamePlayer
from notifications import outbox, services, tokens
from notifications.models import Outbox
from notifications.tests.conftest import wait
from web import runner

pytestmark = pytest.mark.django_db
HERE = "notifications.tests.test_outbox"


class DownBackend(BaseEmailBackend):
    """A mail server that does not answer."""

    def send_messages(self, messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


class Crash(BaseException):
    """The process dies (a restart): nothing after it runs."""


class SentThenCrashBackend(BaseEmailBackend):
    """The mail server takes the message, then the process dies before it hears back."""

    def send_messages(self, messages):
        mail.outbox.extend(messages)
        raise Crash()


def test_a_turn_mail_is_sent_once(game, bob):
    wait(game, bob)
    assert outbox.send_due() == 1
    assert outbox.send_due() == 0
    assert len(mail.outbox) == 1
    row = Outbox.objects.get()
    assert (row.state, row.attempts, row.last_error) == ("sent", 1, "")
    assert row.sent_at is not None and row.subject == "Your turn in Test table"


def test_the_mail_says_where_until_when_and_how_to_stop(game, bob):
    deadlines = wait(game, bob)
    outbox.send_due()
    message = mail.outbox[0]
    assert message.to == ["bob@example.com"]
    assert message.subject == "Your turn in Test table"
    assert f"https://skyjo.example/games/{game.pk}/" in message.body
    assert str(deadlines[bob.pk].year) in message.body
    assert "the medium bot plays your turn" in message.body
    link = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert link in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert tokens.read(token) == (bob.pk, "turn", 0)


def test_a_reminder_says_time_runs_out(game, bob):
    wait(game, bob, signal=signals.turn_reminder)
    outbox.send_due()
    assert mail.outbox[0].subject == "Time is running out in Test table"
    assert "a quarter of your time" in mail.outbox[0].body


@pytest.mark.parametrize(
    ("zone", "name"), [("Asia/Tokyo", "JST"), ("America/New_York", "E"), ("", "UTC")]
)
def test_the_deadline_is_written_in_the_players_time_zone(game, bob, zone, name):
    bob.time_zone = zone
    bob.save(update_fields=["time_zone"])
    deadline = wait(game, bob)[bob.pk]
    outbox.send_due()
    with timezone.override(core_when.zone_of(bob)):
        written = core_when.when(deadline)
    assert written.split()[-1].startswith(name)
    assert f"Play before {written}:" in mail.outbox[0].body


def test_the_mail_is_in_the_players_language(game, bob):
    bob.language = "de"
    bob.save(update_fields=["language"])
    wait(game, bob)
    outbox.send_due()
    assert mail.outbox[0].subject == "Du bist am Zug in Test table"


def test_a_turn_already_played_is_not_mailed(game, alice, bob):
    wait(game, bob)
    GamePlayer.objects.filter(game=game).update(waiting=False)  # bob moved before the runner
    assert outbox.send_due() == 0
    row = Outbox.objects.get()
    assert row.state == "skipped" and "no longer waits" in row.last_error
    assert mail.outbox == []


def test_no_turn_mail_while_the_games_page_is_open(game, bob, settings):
    """Failed on main: a player looking at the game got an e-mail saying it was their turn."""
    wait(game, bob)
    seen = timezone.now()
    GamePlayer.objects.filter(game=game, user=bob).update(connections=1, last_seen=seen)
    assert outbox.send_due() == 0
    row = Outbox.objects.get()
    assert row.state == "skipped" and "page open" in row.last_error
    assert mail.outbox == []


def test_a_socket_count_left_by_a_crashed_server_does_not_stop_the_mail(game, bob, settings):
    wait(game, bob)
    stale = timezone.now() - timedelta(seconds=4 * settings.SKYJO_HEARTBEAT)
    GamePlayer.objects.filter(game=game, user=bob).update(connections=1, last_seen=stale)
    assert outbox.send_due() == 1
    assert len(mail.outbox) == 1


def test_a_kind_turned_off_after_queueing_is_not_sent(game, bob):
    wait(game, bob)
    services.preference_update(
        user=bob, turn_email=False, reminder_email=True, digest=False, quiet_minutes=60
    )
    assert outbox.send_due() == 0
    assert Outbox.objects.get().state == "skipped" and mail.outbox == []


def test_a_mail_server_failure_is_retried_later(settings, game, bob):
    settings.EMAIL_BACKEND = f"{HERE}.DownBackend"
    wait(game, bob)
    now = timezone.now()
    assert outbox.send_due(now=now) == 0
    row = Outbox.objects.get()
    assert (row.state, row.attempts) == ("pending", 1)
    assert "SMTPServerDisconnected" in row.last_error
    assert row.next_try_at == now + outbox.BACKOFF
    assert outbox.send_due(now=now + timedelta(seconds=30)) == 0  # not due yet
    assert Outbox.objects.get().attempts == 1
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert outbox.send_due(now=now + outbox.BACKOFF) == 1
    row = Outbox.objects.get()
    assert (row.state, row.attempts, row.last_error) == ("sent", 2, "")
    assert len(mail.outbox) == 1


def test_the_delay_doubles_and_the_row_fails_after_the_last_try(settings, game, bob):
    settings.EMAIL_BACKEND = f"{HERE}.DownBackend"
    wait(game, bob)
    now = timezone.now()
    delays = []
    for _ in range(outbox.MAX_ATTEMPTS):
        outbox.send_due(now=now)
        row = Outbox.objects.get()
        delays.append(row.next_try_at - now)
        now = row.next_try_at
    assert delays[:3] == [outbox.BACKOFF, 2 * outbox.BACKOFF, 4 * outbox.BACKOFF]
    assert (row.state, row.attempts) == ("failed", outbox.MAX_ATTEMPTS)
    assert outbox.send_due(now=now + timedelta(days=1)) == 0
    assert Outbox.objects.get().state == "failed"


def test_a_restart_mid_send_never_sends_twice(settings, game, bob):
    settings.EMAIL_BACKEND = f"{HERE}.SentThenCrashBackend"
    wait(game, bob)
    now = timezone.now()
    with pytest.raises(Crash):
        outbox.send_due(now=now)
    assert Outbox.objects.get().state == "sending"  # committed before the server was called
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert outbox.send_due(now=now + timedelta(minutes=1)) == 0  # the claim still holds
    assert Outbox.objects.get().state == "sending"
    assert outbox.send_due(now=now + outbox.CLAIM) == 0  # the restarted runner's tick
    row = Outbox.objects.get()
    assert row.state == "failed" and "not sent again" in row.last_error
    assert outbox.send_due(now=now + timedelta(days=1)) == 0
    assert len(mail.outbox) == 1


def test_nothing_is_sent_when_notifications_are_off(settings, game, bob):
    wait(game, bob)
    settings.SKYJO_NOTIFICATIONS = False
    assert outbox.send_due() == 0
    assert Outbox.objects.get().state == "pending" and mail.outbox == []


def _digest_reader(user):
    services.preference_update(
        user=user, turn_email=True, reminder_email=True, digest=True, quiet_minutes=60
    )


def test_the_digest_comes_once_a_day_from_its_hour(game, alice, bob):
    _digest_reader(bob)
    _digest_reader(alice)
    wait(game, bob)
    morning = timezone.localtime().replace(hour=outbox.DIGEST_HOUR, minute=0)
    outbox.digest_tick(now=morning - timedelta(minutes=1))
    assert not Outbox.objects.exists()
    outbox.digest_tick(now=morning)
    outbox.digest_tick(now=morning + timedelta(hours=3))
    row = Outbox.objects.get()  # bob's only: no game waits for alice
    assert (row.user, row.kind, row.game_id) == (bob, "digest", None)
    assert row.dedup_key == f"digest:{bob.pk}:{morning.date().isoformat()}"
    assert outbox.send_due(now=morning) == 1
    message = mail.outbox[0]
    assert message.subject == "Skyjo Online: games waiting for you (1)"
    assert f"- Test table: https://skyjo.example/games/{game.pk}/" in message.body
    assert "List-Unsubscribe" in message.extra_headers
    outbox.digest_tick(now=morning + timedelta(days=1))
    assert Outbox.objects.filter(kind="digest").count() == 2


def test_each_player_gets_the_digest_from_its_hour_in_their_own_time_zone(game, alice, bob):
    """07:00 in Tokyo is 22:00 UTC the day before: bob's digest of that Tokyo day goes then,
    while alice (no zone known: the site's, UTC) has had hers since 07:00 UTC."""
    _digest_reader(bob)
    bob.time_zone = "Asia/Tokyo"
    bob.save(update_fields=["time_zone"])
    wait(game, bob)
    evening = timezone.now().astimezone(UTC).replace(hour=22, minute=0)
    outbox.digest_tick(now=evening - timedelta(minutes=1))
    assert not Outbox.objects.exists()
    outbox.digest_tick(now=evening)
    tokyo_day = (evening + timedelta(hours=9)).date()
    assert Outbox.objects.get().dedup_key == f"digest:{bob.pk}:{tokyo_day.isoformat()}"
    outbox.digest_tick(now=evening + timedelta(hours=5))  # the same day in Tokyo
    assert Outbox.objects.count() == 1


def test_the_runner_looks_for_digests_once_an_hour(monkeypatch, game, bob):
    monkeypatch.setattr(outbox, "DIGEST_HOUR", 0)  # any time of the day is past it
    _digest_reader(bob)
    wait(game, bob)
    old = Outbox.objects.create(
        user=bob, kind="turn", dedup_key="old", language="en", state="sent", game_id=game.pk
    )
    Outbox.objects.filter(pk=old.pk).update(created_at=timezone.now() - outbox.KEEP * 2)
    assert outbox.digest_tick() == 1
    assert list(Outbox.objects.values_list("kind", flat=True)) == ["digest"]  # the old one gone
    assert outbox.digest_tick() == 0  # the memo: no query until the next hour
    monkeypatch.setattr(outbox, "_digest_hour", None)  # an hour later: it looks again
    assert outbox.digest_tick() == 1
    assert Outbox.objects.count() == 1  # a row per player and local day


def test_a_digest_with_nothing_waiting_any_more_is_skipped(game, bob):
    _digest_reader(bob)
    wait(game, bob)
    morning = timezone.localtime().replace(hour=outbox.DIGEST_HOUR, minute=0)
    outbox.digest_tick(now=morning)
    GamePlayer.objects.filter(game=game).update(waiting=False)
    assert outbox.send_due(now=morning) == 0
    assert Outbox.objects.get().state == "skipped" and mail.outbox == []


def test_the_mailer_sends_the_mails_due(monkeypatch, game, bob):
    monkeypatch.setattr(runner, "close_old_connections", lambda: None)  # the test's transaction
    wait(game, bob)
    runner._tick()  # the bot runner's own tick sends nothing: a slow mail server holds no turn
    assert mail.outbox == []
    runner._mail_tick()
    assert [m.subject for m in mail.outbox] == ["Your turn in Test table"]
    assert Outbox.objects.get().state == "sent"


def test_nothing_due_costs_one_query(django_assert_num_queries, game, bob):
    wait(game, bob)
    outbox.send_due()
    with django_assert_num_queries(1):
        assert outbox.send_due() == 0
    outbox.digest_tick()
    with django_assert_num_queries(0):
        assert outbox.digest_tick() == 0  # the runner looks once an hour
