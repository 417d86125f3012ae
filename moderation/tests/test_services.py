"""Reports and every moderator action through moderation.services: the change, its audit log
entry, the report it answers, and what is published after the commit."""

import random
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import services as accounts_services
from chat import services as chat_services
from conftest import PASSWORD
from core.errors import BadRequest, NotFound
from games import services as game_services
from games import services as games_moderation
from games.models import Game, Lobby
from games.services import bot_game_create
from games.tests.helpers import play_one, play_to_end, start_game
from moderation import services
from moderation.models import AppendOnly, AuditEntry, Report
from stats.queries import player_profile

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    game = start_game(alice, bob)
    rng = random.Random(1)
    for _ in range(4):
        play_one(game, [alice, bob], rng)
    game.refresh_from_db()
    return game


def report(reporter, kind, target_id, **kwargs):
    return services.report_create(
        reporter=reporter, kind=kind, target_id=target_id, reason="abuse", **kwargs
    )


# Reports ----------------------------------------------------------------------------------


def test_a_player_reports_a_player_once(alice, bob, charlie, game):
    first, created = report(charlie, "player", bob.pk, text="  rude  ")
    assert created and first.player == bob and first.text == "rude" and first.is_open
    again, created = report(charlie, "player", bob.pk, game_id=game.pk)
    assert not created and again.pk == first.pk
    other, created = report(alice, "player", bob.pk, game_id=game.pk)
    assert created and other.game == game and other.lobby_id == game.lobby_id
    assert Report.objects.count() == 2


def test_a_player_reports_a_game_once(alice, charlie, game):
    first, created = report(charlie, "game", game.pk)
    assert created and first.game == game and first.player is None
    assert report(charlie, "game", game.pk) == (first, False)
    assert report(alice, "game", game.pk)[1] is True


def test_what_cannot_be_reported(alice, bob, charlie):
    with pytest.raises(BadRequest):
        report(alice, "player", alice.pk)
    with pytest.raises(NotFound):
        report(alice, "player", 999_999)
    with pytest.raises(BadRequest):
        services.report_create(reporter=alice, kind="player", target_id=bob.pk, reason="nope")
    private = bot_game_create(user=alice, bots=1, level="easy", end_score=100)
    with pytest.raises(NotFound):  # a private game exists only for its players
        report(charlie, "game", private.pk)
    assert not Report.objects.exists()


# Moderators' actions ----------------------------------------------------------------------


def test_dismiss_closes_the_report_and_writes_the_log(maud, charlie, bob):
    rep, _ = report(charlie, "player", bob.pk)
    assert services.report_dismiss(moderator=maud, report_id=rep.pk, reason="banter") is True
    rep.refresh_from_db()
    assert rep.status == Report.Status.DISMISSED and rep.handled_by == maud
    [entry] = AuditEntry.objects.all()
    assert (entry.moderator, entry.action, entry.player, entry.report, entry.reason) == (
        maud,
        "dismiss",
        bob,
        rep,
        "banter",
    )
    assert services.report_dismiss(moderator=maud, report_id=rep.pk) is False
    assert AuditEntry.objects.count() == 1


def test_a_ban_for_a_time_with_a_reason_the_player_reads(
    maud, bob, charlie, published, django_capture_on_commit_callbacks
):
    rep, _ = report(charlie, "player", bob.pk)
    until = timezone.now() + timedelta(days=7)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.player_ban(
            moderator=maud, user_id=bob.pk, reason="Insults in chat", until=until, report_id=rep.pk
        )
    assert published == [("close", str(bob.pk))]  # his open sockets are told to close
    bob.refresh_from_db()
    assert bob.is_banned and bob.banned_until == until and bob.ban_reason == "Insults in chat"
    [entry] = AuditEntry.objects.all()
    assert (entry.action, entry.player_name, entry.until, entry.reason) == (
        "ban",
        "bob",
        until,
        "Insults in chat",
    )
    rep.refresh_from_db()
    assert rep.status == Report.Status.ACTIONED and rep.handled_by == maud
    page = Client().post(reverse("login"), {"username": "bob", "password": PASSWORD})
    text = page.content.decode()
    assert "This account is banned until " in text and ": Insults in chat" in text


def test_a_ban_needs_a_reason_and_a_future_end(maud, bob):
    with pytest.raises(BadRequest):
        services.player_ban(moderator=maud, user_id=bob.pk, reason="  ")
    with pytest.raises(BadRequest):
        services.player_ban(
            moderator=maud, user_id=bob.pk, reason="x", until=timezone.now() - timedelta(1)
        )
    with pytest.raises(BadRequest):
        services.player_ban(moderator=maud, user_id=maud.pk, reason="x")
    bob.refresh_from_db()
    assert not bob.is_banned and not AuditEntry.objects.exists()


def test_a_ban_for_good_and_the_unban(maud, bob, client):
    assert services.player_ban(moderator=maud, user_id=bob.pk, reason="Cheating")
    assert services.player_ban(moderator=maud, user_id=bob.pk, reason="Cheating") is False
    bob.refresh_from_db()
    assert bob.is_banned and bob.banned_until is None
    page = client.post(reverse("login"), {"username": "bob", "password": PASSWORD})
    assert "This account is banned: Cheating" in page.content.decode()
    assert services.player_unban(moderator=maud, user_id=bob.pk, reason="appeal") is True
    assert services.player_unban(moderator=maud, user_id=bob.pk) is False
    bob.refresh_from_db()
    assert not bob.is_banned
    assert list(AuditEntry.objects.values_list("action", "reason")) == [
        ("unban", "appeal"),
        ("ban", "Cheating"),
    ]
    assert (
        client.post(reverse("login"), {"username": "bob", "password": PASSWORD}).status_code == 302
    )


def test_a_ban_whose_time_is_up_is_lifted_at_log_in_and_on_the_next_request(maud, bob, client):
    services.player_ban(
        moderator=maud, user_id=bob.pk, reason="1 h", until=timezone.now() + timedelta(hours=1)
    )
    client.force_login(bob)  # a session from before the ban
    type(bob).objects.filter(pk=bob.pk).update(banned_until=timezone.now() - timedelta(seconds=1))
    assert client.get(reverse("accounts:settings")).status_code == 200
    bob.refresh_from_db()
    assert not bob.is_banned and bob.banned_until is None


def _sanctioned(player) -> tuple[bool, bool]:
    """Whether ``player`` is banned, and whether they are silenced."""
    player.refresh_from_db()
    return player.is_banned, player.chat_silences.filter(lifted_at__isnull=True).exists()


@pytest.mark.parametrize("target", ["mona", "root"])
def test_a_moderator_may_not_ban_or_silence_a_moderator_or_a_superuser(
    request, maud, charlie, target
):
    player = request.getfixturevalue(target)
    rep, _ = report(charlie, "player", player.pk)
    until = timezone.now() + timedelta(days=1)
    sanction = {"user_id": player.pk, "reason": "x", "until": until, "report_id": rep.pk}
    for call in (services.player_ban, services.player_silence):
        with pytest.raises(BadRequest, match="Only a superuser"):
            call(moderator=maud, **sanction)
    assert _sanctioned(player) == (False, False)
    rep.refresh_from_db()
    assert rep.is_open and not AuditEntry.objects.exists()


@pytest.mark.parametrize("target", ["mona", "root"])
def test_a_moderator_may_not_lift_the_ban_or_silence_of_a_moderator_or_a_superuser(
    request, maud, target
):
    player = request.getfixturevalue(target)
    accounts_services.user_ban(user_id=player.pk, reason="x")
    chat_services.user_silence(user=player, until=None, reason="x", by=None)
    for call in (services.player_unban, services.player_unsilence):
        with pytest.raises(BadRequest, match="Only a superuser"):
            call(moderator=maud, user_id=player.pk)
    assert _sanctioned(player) == (True, True)
    assert not AuditEntry.objects.exists()


def test_a_superuser_may_ban_and_silence_a_moderator_and_lift_it(root, mona):
    until = timezone.now() + timedelta(days=1)
    assert services.player_ban(moderator=root, user_id=mona.pk, reason="x", until=until)
    assert services.player_silence(moderator=root, user_id=mona.pk, reason="x", until=until)
    assert _sanctioned(mona) == (True, True)
    assert services.player_unban(moderator=root, user_id=mona.pk)
    assert services.player_unsilence(moderator=root, user_id=mona.pk)
    assert _sanctioned(mona) == (False, False)
    assert AuditEntry.objects.filter(moderator=root, player=mona).count() == 4


def test_closing_a_lobby_voids_its_game_and_tells_everyone(
    maud, game, charlie, published, django_capture_on_commit_callbacks
):
    rep, _ = report(charlie, "game", game.pk)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.lobby_close(
            moderator=maud, lobby_id=game.lobby_id, reason="spam table", report_id=rep.pk
        )
    game.refresh_from_db()
    assert game.lobby.status == Lobby.Status.CLOSED
    assert game.status == Game.Status.ABORTED and game.voided and not game.counts
    assert ("game", "aborted") in published and ("lobby", game.lobby_id) in published
    [entry] = AuditEntry.objects.all()
    assert (entry.action, entry.lobby_id, entry.game_id, entry.reason, entry.report) == (
        "close_lobby",
        game.lobby_id,
        game.pk,
        "spam table",
        rep,
    )
    assert services.lobby_close(moderator=maud, lobby_id=game.lobby_id) is False
    assert AuditEntry.objects.count() == 1


def _just_before_the_locks(monkeypatch, then):
    """Run ``then`` as games.moderation.lobby_close begins: after all that the moderation
    service did before it, before its locks (a player's move or start, in a race)."""
    close = games_moderation.lobby_close

    def late(**kwargs):
        then()
        return close(**kwargs)

    monkeypatch.setattr(games_moderation, "lobby_close", late)


def test_closing_a_lobby_names_the_game_that_started_just_before(maud, alice, bob, monkeypatch):
    lobby = game_services.lobby_create(host=alice, name="Table", seat_count=2, end_score=100)
    game_services.lobby_join(lobby_id=lobby.pk, user=bob)
    started = []
    _just_before_the_locks(
        monkeypatch,
        lambda: started.append(game_services.lobby_start(lobby_id=lobby.pk, user=alice)),
    )
    assert services.lobby_close(moderator=maud, lobby_id=lobby.pk, reason="spam")
    [game] = started
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.voided
    [entry] = AuditEntry.objects.all()
    assert (entry.action, entry.lobby_id, entry.game_id) == ("close_lobby", lobby.pk, game.pk)


def test_closing_a_lobby_leaves_a_game_that_just_finished_counted_and_unnamed(
    maud, alice, bob, monkeypatch
):
    game = start_game(alice, bob, end_score=1)
    _just_before_the_locks(monkeypatch, lambda: play_to_end(game, [alice, bob]))
    assert services.lobby_close(moderator=maud, lobby_id=game.lobby_id)
    game.refresh_from_db()
    assert game.lobby.status == Lobby.Status.CLOSED
    assert game.status == Game.Status.FINISHED and not game.voided and game.counts
    [entry] = AuditEntry.objects.all()
    assert (entry.action, entry.lobby_id, entry.game_id) == ("close_lobby", game.lobby_id, None)


def test_stopping_a_game_voids_it_and_tells_everyone(
    maud, game, published, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert services.game_stop(moderator=maud, game_id=game.pk, reason="collusion")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.voided
    assert game.lobby.status == Lobby.Status.CLOSED
    assert published == [("game", "aborted"), ("lobby", game.lobby_id)]
    [entry] = AuditEntry.objects.all()
    assert (entry.action, entry.game_id, entry.moderator_name) == ("stop_game", game.pk, "maud")
    with django_capture_on_commit_callbacks(execute=True):
        assert services.game_stop(moderator=maud, game_id=game.pk) is False
    assert len(published) == 2 and AuditEntry.objects.count() == 1


def test_a_voided_game_counts_in_no_statistics_and_no_rating(maud, alice, bob):
    counted = start_game(alice, bob, end_score=20)
    play_to_end(counted, [alice, bob], seed=11)
    alice.refresh_from_db()
    rating, rated = alice.rating_mu, alice.rated_games
    before = player_profile(alice)
    voided = start_game(alice, bob, end_score=20)
    rng = random.Random(3)
    for _ in range(6):  # the reveals and a turn: far from the end
        play_one(voided, [alice, bob], rng)
    assert services.game_stop(moderator=maud, game_id=voided.pk)
    alice.refresh_from_db()
    assert (alice.rating_mu, alice.rated_games) == (rating, rated) == (alice.rating_mu, 1)
    assert player_profile(alice) == before and before.people.games == 1
    assert list(Game.objects.filter(status="finished", voided=False)) == [counted]


def test_a_player_may_do_none_of_it(alice, bob, game):
    rep, _ = report(alice, "player", bob.pk)
    until = timezone.now() + timedelta(days=1)
    calls = [
        lambda: services.report_dismiss(moderator=alice, report_id=rep.pk),
        lambda: services.player_ban(moderator=alice, user_id=bob.pk, reason="x", until=until),
        lambda: services.player_unban(moderator=alice, user_id=bob.pk),
        lambda: services.lobby_close(moderator=alice, lobby_id=game.lobby_id),
        lambda: services.game_stop(moderator=alice, game_id=game.pk),
    ]
    for call in calls:
        with pytest.raises(PermissionDenied):
            call()
    game.refresh_from_db()
    bob.refresh_from_db()
    assert game.status == "playing" and not bob.is_banned and rep.is_open
    assert not AuditEntry.objects.exists()


def test_the_audit_log_is_append_only(maud, bob):
    services.player_ban(moderator=maud, user_id=bob.pk, reason="x")
    entry = AuditEntry.objects.get()
    entry.reason = "edited"
    with pytest.raises(AppendOnly):
        entry.save()
    with pytest.raises(AppendOnly):
        entry.delete()
    assert AuditEntry.objects.get().reason == "x"
