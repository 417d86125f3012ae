"""The receivers of the games signals: what they queue, and what they do not."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from games import signals
from games.models import Game
from notifications import services
from notifications.models import Outbox
from notifications.tests.conftest import wait

pytestmark = pytest.mark.django_db


def test_a_turn_queues_one_mail_for_the_player_it_waits_for(game, alice, bob):
    deadlines = wait(game, bob)
    row = Outbox.objects.get()
    assert (row.user, row.game_id, row.kind, row.state) == (bob, game.pk, "turn", "pending")
    assert row.deadline == deadlines[bob.pk]
    assert row.language == "en"
    assert row.dedup_key == f"turn:{game.pk}:{game.turn_started_at.isoformat()}:{bob.pk}"


def test_the_same_signal_twice_queues_one_row(game, bob):
    wait(game, bob)
    with transaction.atomic():
        signals.turn_waits.send(Game, game=game, deadlines={bob.pk: game.turn_started_at})
    assert Outbox.objects.count() == 1


def test_a_step_rolled_back_queues_nothing(game, bob):
    class Boom(Exception):
        pass

    with pytest.raises(Boom), transaction.atomic():
        signals.turn_waits.send(Game, game=game, deadlines={bob.pk: timezone.now()})
        assert Outbox.objects.count() == 1
        raise Boom
    assert not Outbox.objects.exists()


def test_the_language_is_the_players(game, bob):
    bob.language = "de"
    bob.save(update_fields=["language"])
    wait(game, bob)
    assert Outbox.objects.get().language == "de"


def test_no_address_no_mail(game, bob):
    bob.email = ""
    bob.save(update_fields=["email"])
    wait(game, bob)
    wait(game, bob, signal=signals.turn_reminder)
    assert not Outbox.objects.exists()


def test_each_kind_can_be_turned_off(game, alice, bob):
    services.preference_update(
        user=bob, turn_email=False, reminder_email=True, digest=False, quiet_minutes=0
    )
    services.preference_update(
        user=alice, turn_email=True, reminder_email=False, digest=False, quiet_minutes=0
    )
    wait(game, alice, bob)
    wait(game, alice, bob, signal=signals.turn_reminder)
    assert sorted(Outbox.objects.values_list("user__username", "kind")) == [
        ("alice", "turn"),
        ("bob", "reminder"),
    ]


def test_quiet_time_holds_a_second_turn_mail_for_the_game(game, bob):
    wait(game, bob)
    wait(game, bob)  # a new turn minutes later
    assert Outbox.objects.filter(kind="turn").count() == 1
    Outbox.objects.update(created_at=game.turn_started_at - timedelta(minutes=61))
    wait(game, bob)
    assert Outbox.objects.filter(kind="turn").count() == 2


def test_quiet_time_is_the_players_choice(game, bob):
    services.preference_update(
        user=bob, turn_email=True, reminder_email=True, digest=False, quiet_minutes=0
    )
    wait(game, bob)
    wait(game, bob)
    assert Outbox.objects.filter(kind="turn").count() == 2


def test_a_failed_or_skipped_mail_does_not_hold_the_next(game, bob):
    wait(game, bob)
    Outbox.objects.update(state="skipped")
    wait(game, bob)
    assert Outbox.objects.filter(kind="turn", state="pending").count() == 1


def test_a_reminder_comes_even_within_the_quiet_time(game, bob):
    wait(game, bob)
    wait(game, bob, signal=signals.turn_reminder)
    assert sorted(Outbox.objects.values_list("kind", flat=True)) == ["reminder", "turn"]


def test_a_digest_reader_gets_no_mail_per_turn(game, bob):
    services.preference_update(
        user=bob, turn_email=True, reminder_email=True, digest=True, quiet_minutes=60
    )
    wait(game, bob)
    assert not Outbox.objects.exists()


def test_notifications_off_queue_nothing(settings, game, bob):
    settings.SKYJO_NOTIFICATIONS = False
    wait(game, bob)
    assert not Outbox.objects.exists()
