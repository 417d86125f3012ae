"""A moderator's warning: the mildest sanction (whoever may silence may warn). The player reads
it above every page until they say they have; the audit log keeps it; bad requests change
nothing."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from core.errors import BadRequest
from moderation import services
from moderation.models import AuditEntry, Report

pytestmark = pytest.mark.django_db

REASON = "Insults in the chat of <b>game 4</b>."


def test_a_warning_is_logged_answers_its_report_and_waits_for_the_player(maud, bob, charlie):
    report, _ = services.report_create(
        reporter=charlie, kind="player", target_id=bob.pk, reason="abuse"
    )
    assert services.player_warn(moderator=maud, user_id=bob.pk, reason=REASON, report_id=report.pk)
    bob.refresh_from_db()
    report.refresh_from_db()
    assert bob.warning == REASON
    assert report.status == Report.Status.ACTIONED and report.handled_by == maud
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.player, entry.reason) == ("warn", bob, REASON)
    # The same warning again, unread: nothing to do, nothing logged twice.
    assert not services.player_warn(moderator=maud, user_id=bob.pk, reason=REASON)
    assert AuditEntry.objects.count() == 1


def test_a_warning_needs_a_reason_a_moderator_and_another_player(maud, alice, bob):
    with pytest.raises(BadRequest, match="Give a reason"):
        services.player_warn(moderator=maud, user_id=bob.pk, reason="  ")
    with pytest.raises(BadRequest, match="cannot warn yourself"):
        services.player_warn(moderator=maud, user_id=maud.pk, reason="x")
    with pytest.raises(PermissionDenied):
        services.player_warn(moderator=alice, user_id=bob.pk, reason="x")
    bob.refresh_from_db()
    assert bob.warning == "" and not AuditEntry.objects.exists()


def test_the_player_reads_it_on_every_page_until_they_have(client, maud, bob):
    services.player_warn(moderator=maud, user_id=bob.pk, reason=REASON)
    client.force_login(bob)
    for path in ("/", "/lobbies/", "/rules/"):
        page = client.get(path).content.decode()
        assert 'id="moderator-warning"' in page
        assert "Insults in the chat of &lt;b&gt;game 4&lt;/b&gt;." in page  # escaped
    read = client.post(reverse("accounts:warning_read"), {"next": "/lobbies/"})
    assert read.status_code == 302 and read["Location"] == "/lobbies/"
    bob.refresh_from_db()
    assert bob.warning == ""
    assert 'id="moderator-warning"' not in client.get("/lobbies/").content.decode()
    assert AuditEntry.objects.filter(action="warn", player=bob).count() == 1  # kept


def test_only_the_player_clears_their_own_warning(client, maud, alice, bob):
    services.player_warn(moderator=maud, user_id=bob.pk, reason=REASON)
    assert client.post(reverse("accounts:warning_read")).status_code == 302  # to log in
    client.force_login(alice)
    client.post(reverse("accounts:warning_read"), {"next": "https://example.com/"})
    bob.refresh_from_db()
    assert bob.warning == REASON
    assert 'id="moderator-warning"' not in client.get("/").content.decode()
    assert client.get(reverse("accounts:warning_read")).status_code == 405


def test_a_moderator_warns_from_the_players_file(client, maud, bob):
    client.force_login(maud)
    file = reverse("moderation:player", args=[bob.username])
    assert 'id="warn-reason-p"' in client.get(file).content.decode()
    act = reverse("moderation:act", args=["warn", bob.pk])
    refused = client.post(act, {"reason": "", "next": file}, follow=True).content.decode()
    assert "Give a reason: the player will read it." in refused
    bob.refresh_from_db()
    assert bob.warning == ""
    done = client.post(act, {"reason": "Be kind.", "next": file}, follow=True).content.decode()
    assert "The player is warned" in done and "Warned" in done
    bob.refresh_from_db()
    assert bob.warning == "Be kind."
