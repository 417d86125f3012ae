"""The report pages and the moderators' pages: what a player may do (report, once), what a
moderator may do (exactly the Moderators group's permissions), and that each action button
goes through its service."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse
from django.utils import timezone

from chat import services as chat_services
from core.access import GROUP_NAME, PERMISSIONS
from games.tests.helpers import play_to_end, start_game
from moderation.models import AuditEntry, Report

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob, charlie):
    return start_game(alice, bob, charlie)


@pytest.fixture
def message(game, bob):
    return chat_services.chat_post(user=bob, text="<b>you</b> are all idiots", game_id=game.pk)


def test_the_data_migration_makes_the_group_with_exactly_its_permissions(maud):
    from importlib import import_module

    from django.apps import apps

    Group.objects.filter(name=GROUP_NAME).delete()
    import_module("moderation.migrations.0002_moderators_group").create_group(apps, None)
    group = Group.objects.get(name=GROUP_NAME)
    group.user_set.add(maud)
    maud = type(maud).objects.get(pk=maud.pk)
    granted = {(p.content_type.app_label, p.codename) for p in group.permissions.all()}
    assert granted == set(PERMISSIONS)
    assert not maud.is_superuser
    assert maud.get_all_permissions() == {f"{app}.{code}" for app, code in PERMISSIONS}
    # No permission exists to add, change or delete a report or an audit log entry.
    assert not Permission.objects.filter(
        content_type__app_label="moderation", codename__regex=r"^(add|change|delete)_"
    ).exists()


def test_the_command_adds_and_removes_a_moderator(alice):
    from django.core.management import call_command

    call_command("moderators", add=["alice"])
    alice.refresh_from_db()
    assert alice.is_staff and alice.has_perm("moderation.ban_player")
    call_command("moderators", remove=["alice"])
    alice = type(alice).objects.get(pk=alice.pk)
    assert not alice.is_staff and not alice.has_perm("moderation.ban_player")


def test_a_player_reports_a_player_from_the_profile_once(client, charlie, bob):
    client.force_login(charlie)
    profile = client.get(reverse("accounts:profile", args=["bob"])).content.decode()
    url = reverse("moderation:report_player", args=["bob"])
    assert url in profile
    page = client.post(url, {"reason": "abuse", "text": "rude to me"}, follow=True)
    assert "Thank you: your report was received." in page.content.decode()
    again = client.get(url).content.decode()
    assert "Your report was received" in again and 'name="reason"' not in again
    client.post(url, {"reason": "spam"})
    assert Report.objects.get().reason == "abuse"
    client.force_login(bob)
    assert client.get(reverse("moderation:report_player", args=["bob"])).status_code == 404


def test_a_player_reports_the_game_or_a_player_at_the_table(client, game, charlie, alice):
    client.force_login(charlie)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    url = reverse("moderation:report_game", args=[game.pk])
    assert url in page
    form = client.get(url).content.decode()
    assert 'value="game"' in form and f'value="{alice.pk}"' in form
    assert f'value="{charlie.pk}"' not in form  # not themself
    client.post(url, {"target": str(alice.pk), "reason": "cheating"})
    response = client.post(url, {"target": "game", "reason": "unsporting"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("games:game", args=[game.pk])
    assert "your report was received" in response.content.decode()
    assert sorted(Report.objects.values_list("kind", "player__username", "game")) == [
        ("game", None, game.pk),
        ("player", "alice", game.pk),
    ]


def test_a_player_reports_a_message(client, message, charlie):
    client.force_login(charlie)
    url = reverse("moderation:report_message", args=[message.pk])
    assert client.get(url).status_code == 200
    client.post(url, {"reason": "abuse"})
    client.post(url, {"reason": "abuse"})
    assert Report.objects.filter(kind="message", message_id=message.pk).count() == 1


def test_a_message_one_may_not_read_has_no_report_page(client, message, django_user_model):
    watcher = django_user_model.objects.create_user("dora", password="x-dora-pw-1")
    client.force_login(watcher)  # the players' chat of a running game
    assert client.get(reverse("moderation:report_message", args=[message.pk])).status_code == 404


def moderator_urls(game, message, bob):
    return [
        reverse("moderation:queue"),
        reverse("moderation:player", args=[bob.username]),
        reverse("moderation:game", args=[game.pk]),
        reverse("moderation:log"),
    ]


def test_a_player_sees_no_moderation_page_and_may_do_no_action(client, alice, bob, game, message):
    report = Report.objects.create(reporter=alice, kind="player", player=bob, reason="abuse")
    client.force_login(alice)
    for url in moderator_urls(game, message, bob):
        assert client.get(url).status_code == 403, url
    posts = {
        "dismiss": report.pk,
        "hide": message.pk,
        "silence": bob.pk,
        "unsilence": bob.pk,
        "ban": bob.pk,
        "unban": bob.pk,
        "close_lobby": game.lobby_id,
        "stop_game": game.pk,
    }
    data = {"reason": "x", "duration": "1d"}
    for action, pk in posts.items():
        url = reverse("moderation:act", args=[action, pk])
        assert client.post(url, data).status_code == 403, action
    assert not AuditEntry.objects.exists()
    assert "Moderation" not in client.get("/").content.decode()


def test_the_queue_shows_open_reports_oldest_first_with_the_message_in_context(
    client, maud, alice, charlie, bob, game, message
):
    after = chat_services.chat_post(user=alice, text="calm down", game_id=game.pk)
    Report.objects.create(reporter=alice, kind="player", player=bob, reason="cheating")
    client.force_login(charlie)
    client.post(reverse("moderation:report_message", args=[message.pk]), {"reason": "abuse"})
    Report.objects.create(
        reporter=alice, kind="game", game=game, reason="other", status="dismissed"
    )
    client.force_login(maud)
    page = client.get(reverse("moderation:queue")).content.decode()
    assert "2 open reports" in page
    assert page.index("Cheating") < page.index("Insults or harassment")
    card = page[page.index("The message in context") :]
    assert "&lt;b&gt;you&lt;/b&gt; are all idiots" in card  # escaped
    reported = card.index(f'mod-msg-reported" data-message="{message.pk}"')
    assert reported < card.index(f'data-message="{after.pk}"')
    assert "1 other report about this player." in page
    assert reverse("moderation:act", args=["hide", message.pk]) in page


def test_every_action_button_goes_through_its_service(client, maud, alice, bob, game, message):
    report = Report.objects.create(
        reporter=alice, kind="message", message_id=message.pk, player=bob, reason="abuse"
    )
    client.force_login(maud)
    queue = reverse("moderation:queue")

    def act(action, pk, **data):
        response = client.post(
            reverse("moderation:act", args=[action, pk]), {"next": queue, **data}
        )
        assert response.status_code == 302 and response["Location"] == queue, action

    act("hide", message.pk, report=report.pk, reason="insult")
    act("silence", bob.pk, duration="1h", reason="insults")
    act("ban", bob.pk, duration="7d", reason="insults again")
    act("unban", bob.pk)
    act("stop_game", game.pk, reason="voided for abuse")
    act("close_lobby", game.lobby_id)  # closed with the game already: nothing to do
    other = Report.objects.create(reporter=alice, kind="player", player=bob, reason="spam")
    act("dismiss", other.pk)
    assert list(AuditEntry.objects.order_by("pk").values_list("action", flat=True)) == [
        "hide_message",
        "silence",
        "ban",
        "unban",
        "stop_game",
        "dismiss",
    ]
    ban = AuditEntry.objects.get(action="ban")
    assert timedelta(days=6) < ban.until - timezone.now() <= timedelta(days=7)
    log = client.get(reverse("moderation:log")).content.decode()
    assert "insults again" in log and "voided for abuse" in log
    game.refresh_from_db()
    assert game.voided


def test_a_ban_needs_a_reason(client, maud, bob):
    client.force_login(maud)
    client.post(reverse("moderation:act", args=["ban", bob.pk]), {"duration": "forever"})
    bob.refresh_from_db()
    assert not bob.is_banned


@pytest.mark.parametrize("target", ["mona", "root"])
def test_a_moderator_reads_why_they_may_not_ban_or_silence_a_moderator_or_a_superuser(
    client, request, maud, target
):
    player = request.getfixturevalue(target)
    client.force_login(maud)
    here = reverse("moderation:player", args=[player.username])
    for action, duration in (("ban", "forever"), ("silence", "1h")):
        page = client.post(
            reverse("moderation:act", args=[action, player.pk]),
            {"next": here, "duration": duration, "reason": "x"},
            follow=True,
        )
        assert page.redirect_chain == [(here, 302)], action
        assert (
            "Only a superuser can ban or silence a moderator or a superuser, or lift it."
            in page.content.decode()
        ), action
    player.refresh_from_db()
    assert not player.is_banned and not player.chat_silences.exists()
    assert not AuditEntry.objects.exists()


def test_a_moderator_has_no_way_to_edit_or_delete_the_audit_log(client, maud, bob):
    client.force_login(maud)
    client.post(reverse("moderation:act", args=["ban", bob.pk]), {"duration": "1d", "reason": "x"})
    entry = AuditEntry.objects.get()
    assert client.get(reverse("admin:moderation_auditentry_changelist")).status_code == 200
    change = reverse("admin:moderation_auditentry_change", args=[entry.pk])
    page = client.get(change).content.decode()
    assert 'name="_save"' not in page
    assert client.post(change, {"reason": "edited"}).status_code == 403
    delete = reverse("admin:moderation_auditentry_delete", args=[entry.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert client.get(reverse("admin:accounts_user_changelist")).status_code == 403
    assert AuditEntry.objects.get().reason == "x"


def test_the_queue_reads_each_reported_player_once(
    client, maud, bob, game, django_user_model, django_assert_max_num_queries
):
    for n in range(6):
        reporter = django_user_model.objects.create_user(f"reporter{n}", password="x-pw-12345")
        Report.objects.create(reporter=reporter, kind="player", player=bob, reason="abuse")
    client.force_login(maud)
    client.get(reverse("moderation:queue"))  # sessions, permissions, caches warmed
    with django_assert_max_num_queries(20):  # six reports about one player
        page = client.get(reverse("moderation:queue")).content.decode()
    assert page.count('class="panel report-card"') == 6


@pytest.mark.parametrize("back", ["foo", "home", "logout"])
def test_it_sends_a_next_that_is_no_path_back_where_the_page_came_from(
    client, maud, charlie, game, message, back
):
    """A word is no page: it was taken for a URL name, a server error when none has it, and
    the view of that name when one had it."""
    client.force_login(charlie)
    url = reverse("moderation:report_player", args=["bob"])
    response = client.post(url, {"reason": "abuse", "next": back})
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:profile", args=["bob"])
    form = client.get(reverse("moderation:report_game", args=[game.pk]) + f"?next={back}")
    assert f'value="{reverse("games:game", args=[game.pk])}"' in form.content.decode()
    client.force_login(maud)
    act = reverse("moderation:act", args=["hide", message.pk])
    response = client.post(act, {"next": back})
    assert response.status_code == 302 and response["Location"] == reverse("moderation:queue")


def test_a_player_finds_no_report_page_of_the_spectators_chat_while_the_game_runs(
    client, game, alice, bob, charlie, django_user_model
):
    """Players do not read the spectators' chat during the game (docs/chat.md): its report
    page would tell them who wrote there, message by message."""
    dora = django_user_model.objects.create_user("dora", password="x-dora-pw-1")
    whisper = chat_services.chat_post(user=dora, text="bob holds a 12", game_id=game.pk)
    url = reverse("moderation:report_message", args=[whisper.pk])
    erin = django_user_model.objects.create_user("erin", password="x-erin-pw-1")
    client.force_login(erin)  # another spectator of the public game may report it
    assert client.get(url).status_code == 200
    client.force_login(alice)
    assert client.get(url).status_code == 404
    assert client.post(url, {"reason": "abuse"}).status_code == 404
    assert not Report.objects.exists()
    play_to_end(game, [alice, bob, charlie])  # then their game page shows that chat too
    assert whisper.text in client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert client.get(url).status_code == 200


def test_a_message_in_two_places_of_the_queue_gives_no_element_id_twice(
    client, maud, alice, charlie, bob, game, message
):
    for reporter in (alice, charlie):
        client.force_login(reporter)
        client.post(reverse("moderation:report_message", args=[message.pk]), {"reason": "abuse"})
    client.force_login(maud)
    page = client.get(reverse("moderation:queue")).content.decode()
    assert page.count(f'data-message="{message.pk}"') >= 2
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
