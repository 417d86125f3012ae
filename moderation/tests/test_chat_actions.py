"""Chat messages: reported once per reporter, hidden by a moderator (gone from every open
page after the commit), and silences; each with its audit log entry."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from chat import selectors as chat_selectors
from chat import services as chat_services
from chat.errors import ChatSilenced
from core.errors import BadRequest, NotFound
from games import services as game_services
from games.tests.helpers import start_game
from moderation import services
from moderation.models import AuditEntry, Report

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob, charlie):
    return start_game(alice, bob, charlie)


@pytest.fixture
def message(game, bob):
    return chat_services.chat_post(user=bob, text="you are all idiots", game_id=game.pk)


def client_of(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def report_message(reporter, message):
    return services.report_create(
        reporter=reporter, kind="message", target_id=message.pk, reason="abuse"
    )


def test_a_player_reports_a_message_once(message, alice, charlie, bob, game):
    first, created = report_message(charlie, message)
    assert created and (first.message_id, first.player, first.game, first.lobby_id) == (
        message.pk,
        bob,
        game,
        game.lobby_id,
    )
    assert report_message(charlie, message) == (first, False)
    assert report_message(alice, message)[1] is True
    with pytest.raises(BadRequest):
        report_message(bob, message)  # their own


def test_a_message_is_reported_only_by_who_can_read_it(message, django_user_model):
    watcher = django_user_model.objects.create_user("dora", password="x-dora-pw-1")
    with pytest.raises(NotFound):  # the players' channel, while the game runs
        report_message(watcher, message)
    assert not Report.objects.exists()


def test_the_players_chat_of_a_finished_game_stays_the_players(message, game, django_user_model):
    """No page shows a spectator the players' chat, after the game neither: the report page of
    one of its messages (ids are sequential) would."""
    from games import services as game_moderation

    game_moderation.game_stop(game_id=game.pk)
    watcher = django_user_model.objects.create_user("dora", password="x-dora-pw-1")
    with pytest.raises(NotFound):
        report_message(watcher, message)
    response = client_of(watcher).get(f"/report/message/{message.pk}/")
    assert response.status_code == 404
    assert "idiots" not in response.content.decode()


def test_hiding_a_message_answers_its_reports_and_tells_every_page(
    maud, message, alice, charlie, published, django_capture_on_commit_callbacks
):
    first, _ = report_message(charlie, message)
    second, _ = report_message(alice, message)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.message_hide(
            moderator=maud, message_id=message.pk, reason="insult", report_id=first.pk
        )
    assert published == [("hidden", message.pk)]
    message.refresh_from_db()
    assert message.is_hidden and message.hidden_by == maud
    shown = chat_selectors.messages_for(user=alice, game_id=message.game_id)
    assert message not in shown
    assert set(Report.objects.values_list("status", flat=True)) == {"actioned"}
    [entry] = AuditEntry.objects.all()
    assert (entry.action, entry.player_name, entry.message_id, entry.report, entry.reason) == (
        "hide_message",
        "bob",
        message.pk,
        first,
        "insult",
    )
    assert second.pk != first.pk
    assert services.message_hide(moderator=maud, message_id=message.pk) is False
    assert AuditEntry.objects.count() == 1


def test_a_silence_for_a_time(maud, bob, game):
    until = timezone.now() + timedelta(hours=1)
    assert services.player_silence(moderator=maud, user_id=bob.pk, until=until, reason="spam")
    with pytest.raises(ChatSilenced) as refused:
        chat_services.chat_post(user=bob, text="hello?", game_id=game.pk)
    assert "spam" in str(refused.value)
    [entry] = AuditEntry.objects.all()
    page = client_of(maud).get(f"/moderation/players/{bob.username}/").content.decode()
    assert "Lift the silence" in page and "spam" in page
    assert (entry.action, entry.player_name, entry.until, entry.reason) == (
        "silence",
        "bob",
        until,
        "spam",
    )
    assert services.player_unsilence(moderator=maud, user_id=bob.pk, reason="appeal")
    assert services.player_unsilence(moderator=maud, user_id=bob.pk) is False
    assert chat_services.chat_post(user=bob, text="sorry", game_id=game.pk)
    assert AuditEntry.objects.first().action == "unsilence"
    with pytest.raises(BadRequest):
        services.player_silence(moderator=maud, user_id=bob.pk, until=timezone.now(), reason="x")
    with pytest.raises(BadRequest):
        services.player_silence(moderator=maud, user_id=bob.pk, until=until, reason="")


def test_a_player_may_neither_hide_nor_silence(alice, bob, message):
    with pytest.raises(PermissionDenied):
        services.message_hide(moderator=alice, message_id=message.pk)
    with pytest.raises(PermissionDenied):
        services.player_silence(
            moderator=alice, user_id=bob.pk, until=timezone.now() + timedelta(1), reason="x"
        )
    with pytest.raises(PermissionDenied):
        services.player_unsilence(moderator=alice, user_id=bob.pk)
    message.refresh_from_db()
    assert not message.is_hidden and chat_selectors.active_silence(bob.pk) is None


def test_a_lobby_message_is_reported_and_hidden(
    maud, alice, charlie, published, django_capture_on_commit_callbacks
):
    lobby = game_services.lobby_create(host=alice, name="Open table", seat_count=4)
    message = chat_services.chat_post(user=alice, text="buy cheap coins", lobby_id=lobby.pk)
    report, created = report_message(charlie, message)
    assert created and (report.lobby_id, report.game_id, report.player) == (lobby.pk, None, alice)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.message_hide(moderator=maud, message_id=message.pk, report_id=report.pk)
    assert published == [("hidden", message.pk)]
    entry = AuditEntry.objects.get()
    assert (entry.lobby_id, entry.game_id, entry.message_id) == (lobby.pk, None, message.pk)


@pytest.mark.django_db(transaction=True)
def test_a_report_filed_while_the_message_is_hidden_is_refused_not_left_open(
    maud, alice, bob, monkeypatch
):
    """The report read the message before the hide and was written after it: an open report
    of a hidden message, which no hide answered. It now locks the message and looks again."""
    import threading

    from django.db import connections

    game = start_game(alice, bob)
    message = chat_services.chat_post(user=bob, text="idiots", game_id=game.pk)
    read, hidden = threading.Event(), threading.Event()
    readable = services.readable_message

    def read_then_wait(reporter, message_id):
        found = readable(reporter, message_id)
        read.set()
        hidden.wait(timeout=30)
        return found

    monkeypatch.setattr(services, "readable_message", read_then_wait)
    outcome = []

    def report():  # in a thread of its own, as another request
        try:
            outcome.append(report_message(alice, message))
        except Exception as exc:
            outcome.append(exc)
        finally:
            connections.close_all()

    racer = threading.Thread(target=report)
    racer.start()
    assert read.wait(timeout=30)
    assert services.message_hide(moderator=maud, message_id=message.pk, reason="insult")
    hidden.set()
    racer.join(timeout=60)
    assert len(outcome) == 1 and isinstance(outcome[0], NotFound), outcome
    assert not Report.objects.filter(status=Report.Status.OPEN).exists()


def test_hiding_a_hidden_message_answers_a_report_still_open(maud, message, alice, charlie):
    first, _ = report_message(charlie, message)
    assert services.message_hide(moderator=maud, message_id=message.pk, reason="insult")
    late = Report.objects.create(  # as one written by a race before the report locked
        reporter=alice, kind=Report.Kind.MESSAGE, message_id=message.pk, player_id=message.author_id
    )
    assert services.message_hide(moderator=maud, message_id=message.pk, report_id=late.pk) is False
    late.refresh_from_db()
    assert late.status == Report.Status.ACTIONED and late.handled_by == maud
