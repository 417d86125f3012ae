"""What a lobby's host may not do over HTTP: open more than 8 seats (or fewer than 2), play
against more than 7 bots, or change the table once its game runs (remove a player, put a bot
in or take one out, leave): the game goes on exactly as before. Nobody else may do any of it."""

import pytest
from django.urls import reverse

from games import engine
from games.models import Game, GamePlayer, Lobby, Seat
from games.tests.helpers import start_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seats", ["9", "1", "8.5"])
def test_a_lobby_has_2_to_8_seats(client, alice, seats):
    client.force_login(alice)
    form = {"name": "Big table", "seat_count": seats, "end_score": "100", "is_public": "on"}
    response = client.post(reverse("games:lobbies"), form)
    assert response.status_code == 200  # the form again, with its error
    assert not Lobby.objects.exists()


@pytest.mark.parametrize("bots", ["8", "0"])
def test_a_game_against_bots_has_1_to_7_of_them(client, alice, bots):
    client.force_login(alice)
    response = client.post(
        reverse("games:play_bots"), {"bots": bots, "level": "easy", "end_score": "100"}
    )
    assert response.status_code == 302
    assert not Game.objects.exists()


def test_no_bot_or_player_goes_past_the_last_seat(client, alice, bob):
    client.force_login(alice)
    form = {"name": "Table", "seat_count": "2", "end_score": "100", "is_public": "on"}
    client.post(reverse("games:lobbies"), form)
    lobby = Lobby.objects.get()
    for seat in (2, 8, 9):
        client.post(reverse("games:lobby_add_bot", args=[lobby.pk, seat]), {"level": "easy"})
    client.post(reverse("games:lobby_add_bot", args=[lobby.pk, 1]), {"level": "easy"})
    client.force_login(bob)
    client.post(reverse("games:lobby_join", args=[lobby.pk]))
    assert Seat.objects.filter(lobby=lobby).count() == 2
    assert [s.bot_level or s.user_id for s in lobby.seats.all()] == [alice.pk, "easy"]


def test_the_host_cannot_change_the_table_of_a_running_game(client, alice, bob, charlie):
    game = start_game(alice, bob, charlie)
    lobby = game.lobby
    before = (game.version, list(GamePlayer.objects.filter(game=game).values_list("user", "seat")))
    client.force_login(alice)
    for name, args in [
        ("games:lobby_remove", [lobby.pk, 1]),
        ("games:lobby_remove", [lobby.pk, 2]),
        ("games:lobby_remove_bot", [lobby.pk, 1]),
        ("games:lobby_add_bot", [lobby.pk, 1]),
        ("games:lobby_leave", [lobby.pk]),
        ("games:lobby_start", [lobby.pk]),
    ]:
        response = client.post(reverse(name, args=args), {"level": "easy"})
        assert response.status_code == 302, name
    lobby.refresh_from_db()
    game.refresh_from_db()
    assert lobby.status == Lobby.Status.PLAYING and lobby.game_id == game.pk
    assert not lobby.removed_users.exists()
    assert [s.user_id for s in lobby.seats.all()] == [alice.pk, bob.pk, charlie.pk]
    assert not lobby.seats.exclude(bot_level="").exists()
    assert Game.objects.count() == 1 and game.status == Game.Status.PLAYING
    after = (game.version, list(GamePlayer.objects.filter(game=game).values_list("user", "seat")))
    assert after == before
    # Bob still plays his seat.
    client.force_login(bob)
    state = client.get(reverse("games:game_state", args=[game.pk])).json()
    assert state["players"][1]["name"] == "bob"
    assert engine.from_snapshot(game.snapshot).phase == engine.REVEAL_PHASE


def test_only_the_host_acts_for_the_table(client, alice, bob, charlie):
    client.force_login(alice)
    form = {"name": "Table", "seat_count": "4", "end_score": "100", "is_public": "on"}
    client.post(reverse("games:lobbies"), form)
    lobby = Lobby.objects.get()
    for user in (bob, charlie):
        client.force_login(user)
        client.post(reverse("games:lobby_join", args=[lobby.pk]))
    client.force_login(bob)  # a seated player who is not the host
    for name, args in [
        ("games:lobby_remove", [lobby.pk, 2]),
        ("games:lobby_remove", [lobby.pk, 0]),
        ("games:lobby_add_bot", [lobby.pk, 3]),
        ("games:lobby_start", [lobby.pk]),
    ]:
        client.post(reverse(name, args=args), {"level": "easy"})
    lobby.refresh_from_db()
    assert lobby.host_id == alice.pk and lobby.status == Lobby.Status.OPEN
    assert [s.user_id for s in lobby.seats.all()] == [alice.pk, bob.pk, charlie.pk, None]
    assert not lobby.seats.exclude(bot_level="").exists() and not lobby.removed_users.exists()
    # Leaving gives up one's own seat only.
    client.post(reverse("games:lobby_leave", args=[lobby.pk]))
    assert [s.user_id for s in lobby.seats.all()] == [alice.pk, None, charlie.pk, None]
