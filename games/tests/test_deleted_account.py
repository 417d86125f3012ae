"""A superuser deletes an account in the admin (a spammer's, say): the games the others played
at its tables stay theirs, and its open lobbies go on as if it had left them.

Deleting the host of a lobby deleted the lobby, and with it every game played there: the other
players' histories, statistics, rating changes and replays, and a game running at that moment.
"""

import re

import pytest
from django.urls import reverse

from games import services
from games.models import Game, GamePlayer, Lobby
from games.tests.helpers import play_to_end, start_game
from stats.models import GameResult, RatingChange

pytestmark = pytest.mark.django_db


def test_the_games_at_a_deleted_hosts_tables_stay_with_the_other_players(
    client, alice, bob, charlie
):
    finished = start_game(alice, bob, charlie, end_score=30)
    play_to_end(finished, [alice, bob, charlie], seed=1)
    running = start_game(alice, bob)
    alice.delete()

    assert Game.objects.filter(pk__in=[finished.pk, running.pk]).count() == 2
    finished_lobby = Lobby.objects.get(games=finished)
    assert finished_lobby.host_id is None
    results = GameResult.objects.filter(game=finished).order_by("seat")
    assert [r.user_id for r in results] == [None, bob.pk, charlie.pk]
    assert RatingChange.objects.filter(game=finished, user=bob).exists()
    client.force_login(bob)
    for url in (
        reverse("games:game", args=[finished.pk]),
        reverse("games:replay", args=[finished.pk]),
        reverse("accounts:profile", args=["bob"]),
        reverse("games:game", args=[running.pk]),
    ):
        assert client.get(url).status_code == 200, url
    profile = client.get(reverse("accounts:profile", args=["bob"])).content.decode()
    assert reverse("games:replay", args=[finished.pk]) in profile
    assert GamePlayer.objects.get(game=running, seat=0).user_id is None


def test_an_open_lobby_of_a_deleted_host_passes_to_the_next_player(
    client, alice, bob, charlie, django_user_model
):
    lobby = services.lobby_create(host=alice, name="Alice's table", seat_count=3, end_score=50)
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    services.lobby_join(lobby_id=lobby.pk, user=charlie)
    alice.delete()

    lobby.refresh_from_db()
    assert lobby.status == Lobby.Status.OPEN and lobby.host_id == bob.pk
    assert [s.user_id for s in lobby.seats.order_by("index")] == [None, bob.pk, charlie.pk]
    client.force_login(bob)
    page = client.get(reverse("games:lobby", args=[lobby.pk])).content.decode()
    assert re.search(r"public lobby hosted by <[^>]+>bob<", page)
    services.lobby_join(lobby_id=lobby.pk, user=django_user_model.objects.create_user("dave"))
    game = services.lobby_start(lobby_id=lobby.pk, user=bob)
    assert game.status == Game.Status.PLAYING


def test_an_open_lobby_a_deleted_host_sat_alone_at_closes(alice):
    lobby = services.lobby_create(host=alice, name="Alice's table", seat_count=2, end_score=50)
    alice.delete()
    lobby.refresh_from_db()
    assert lobby.status == Lobby.Status.CLOSED and lobby.host_id is None


def test_a_rematch_plays_a_deleted_players_seat_with_the_medium_bot(alice, bob):
    """As the game it follows did: the seat was made a human one with no account and the name
    " bot 1"."""
    finished = start_game(alice, bob, end_score=30)
    play_to_end(finished, [alice, bob], seed=1)
    alice.delete()
    new = services.game_rematch(game_id=finished.pk, user=bob)
    seats = [(p.seat, p.user_id, p.bot_level, p.name) for p in new.players.order_by("seat")]
    assert seats == [(0, None, "medium", "Medium bot 1"), (1, bob.pk, "", "bob")]


def test_the_admin_deletes_an_account_seated_at_an_open_lobby(
    admin_client, alice, bob, django_user_model
):
    """Through the admin's own confirmation page, as a superuser does it."""
    lobby = services.lobby_create(host=alice, name="Alice's table", seat_count=2, end_score=50)
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    url = reverse("admin:accounts_user_delete", args=[alice.pk])
    assert admin_client.get(url).status_code == 200
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert not django_user_model.objects.filter(pk=alice.pk).exists()
    lobby.refresh_from_db()
    assert lobby.status == Lobby.Status.OPEN and lobby.host_id == bob.pk
