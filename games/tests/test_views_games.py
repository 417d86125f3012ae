import json
import re

import pytest
from django.urls import reverse

from games import engine, services
from games.models import Lobby
from games.records import game_record
from games.tests.helpers import play_to_end, restore, reveal_all, start_game

pytestmark = pytest.mark.django_db


def test_lobby_list_requires_login(client):
    response = client.get(reverse("games:lobbies"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_create_a_lobby_through_the_form(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("games:lobbies"),
        {"name": "Friday", "seat_count": "3", "is_public": "on", "end_score": "50"},
    )
    lobby = Lobby.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/lobbies/{lobby.pk}/"
    assert (lobby.name, lobby.seat_count, lobby.end_score) == ("Friday", 3, 50)
    assert not lobby.double_on_tie  # unchecked box
    page = client.get(reverse("games:lobbies"))
    assert b"Friday" in page.content


def test_join_leave_and_clear_messages(client, alice, bob, charlie):
    lobby = services.lobby_create(host=alice, name="Two", seat_count=2)
    client.force_login(bob)
    client.post(reverse("games:lobby_join", args=[lobby.pk]))
    assert lobby.seats.filter(user=bob).exists()
    client.force_login(charlie)
    response = client.post(reverse("games:lobby_join", args=[lobby.pk]), follow=True)
    assert b"This lobby is full" in response.content


def test_private_lobby_is_hidden_but_the_invite_link_works(client, alice, bob):
    lobby = services.lobby_create(host=alice, name="Secret", is_public=False)
    client.force_login(bob)
    assert client.get(reverse("games:lobby", args=[lobby.pk])).status_code == 404
    assert b"Secret" not in client.get(reverse("games:lobbies")).content
    page = client.get(reverse("games:lobby_invite", args=[lobby.invite_code]))
    assert page.status_code == 200 and lobby.invite_code.encode() in page.content
    client.post(reverse("games:lobby_join", args=[lobby.pk]), {"invite_code": lobby.invite_code})
    assert lobby.seats.filter(user=bob).exists()


def test_an_invite_that_comes_after_the_start_of_a_private_game_leads_to_it(
    client, alice, bob, charlie, moderator
):
    """The invitee watches with the code in the game's address; without it the game stays
    hidden; a moderator, who may watch every game, is taken to its plain address."""
    lobby = services.lobby_create(host=alice, name="Secret", is_public=False)
    services.lobby_join(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    game = services.lobby_start(lobby_id=lobby.pk, user=alice)
    invite = reverse("games:lobby_invite", args=[lobby.invite_code])
    client.force_login(charlie)
    assert client.get(invite)["Location"] == f"/games/{game.pk}/?invite={lobby.invite_code}"
    assert client.get(f"/games/{game.pk}/").status_code == 404
    client.force_login(moderator)
    assert client.get(invite)["Location"] == f"/games/{game.pk}/"


def test_the_invite_link_is_offered_only_while_the_lobby_takes_players(client, alice, bob):
    lobby = services.lobby_create(host=alice, name="T")
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    client.force_login(bob)
    assert lobby.invite_code.encode() in client.get(reverse("games:lobby", args=[lobby.pk])).content
    services.lobby_leave(lobby_id=lobby.pk, user=alice)  # bob hosts now
    services.lobby_leave(lobby_id=lobby.pk, user=bob)  # alone: the lobby closes
    page = client.get(reverse("games:lobby", args=[lobby.pk]))
    assert b"This lobby has been closed" in page.content
    assert lobby.invite_code.encode() not in page.content


def test_removed_player_sees_a_message(client, alice, bob):
    lobby = services.lobby_create(host=alice, name="T")
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    client.force_login(alice)
    client.post(reverse("games:lobby_remove", args=[lobby.pk, 1]))
    client.force_login(bob)
    page = client.get(reverse("games:lobby", args=[lobby.pk]))
    assert b"The host removed you" in page.content
    response = client.post(reverse("games:lobby_join", args=[lobby.pk]), follow=True)
    assert b"removed you" in response.content


def test_a_player_removed_from_a_private_lobby_is_not_let_back_by_the_invite_link(
    client, alice, bob
):
    lobby = services.lobby_create(host=alice, name="Secret", is_public=False)
    services.lobby_join(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    services.lobby_remove_player(lobby_id=lobby.pk, host=alice, seat_index=1)
    client.force_login(bob)
    for url in (
        reverse("games:lobby", args=[lobby.pk]),
        reverse("games:lobby_invite", args=[lobby.invite_code]),
    ):
        page = client.get(url)
        assert page.status_code == 404, url
        assert b"The host removed you from this lobby." in page.content
        assert lobby.invite_code.encode() not in page.content
    response = client.post(
        reverse("games:lobby_join", args=[lobby.pk]),
        {"invite_code": lobby.invite_code},
        follow=True,
    )
    assert response.status_code == 404 and b"The host removed you" in response.content
    assert not lobby.seats.filter(user=bob).exists()


def test_host_starts_and_everyone_is_sent_to_the_game(client, alice, bob):
    lobby = services.lobby_create(host=alice, name="T")
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    client.force_login(alice)
    response = client.post(reverse("games:lobby_start", args=[lobby.pk]))
    lobby.refresh_from_db()
    assert response["Location"] == f"/games/{lobby.game_id}/"
    client.force_login(bob)
    assert client.get(f"/lobbies/{lobby.pk}/")["Location"] == f"/games/{lobby.game_id}/"


def visible_values(html: str, seat: int) -> list:
    block = html.split(f'id="player-{seat}"')[1].split("</section>")[0]
    return re.findall(r'data-v="([^"]*)"', block)


def test_game_page_shows_grids_without_hidden_values(client, alice, bob, charlie):
    game = start_game(alice, bob)
    reveal_all(game, [alice, bob])
    state = restore(game)
    for user, seat in ((alice, 0), (bob, 1), (charlie, None)):
        client.force_login(user)
        html = client.get(reverse("games:game", args=[game.pk])).content.decode()
        for s in (0, 1):
            expected = [str(v) for v in engine.view_of(state, s).grids[s]]
            assert visible_values(html, s) == expected
        assert 'id="controls"' in html
        if seat is None:
            assert "You are watching" in html


def test_state_json_is_the_requesting_users_view(client, alice, bob, charlie):
    game = start_game(alice, bob)
    reveal_all(game, [alice, bob])
    state = restore(game)
    player = state.current
    users = [alice, bob]
    game.refresh_from_db()
    services.game_apply_action(
        game_id=game.pk, user=users[player], action={"take": "deck"}, version=game.version
    )
    state = restore(game)
    for user, seat in ((alice, 0), (bob, 1), (charlie, None)):
        client.force_login(user)
        data = client.get(reverse("games:game_state", args=[game.pk])).json()
        assert data == {**engine.view_of(state, seat).to_json(), "version": 5}
        assert (data["drawn"] is not None) == (seat == player)


def test_record_json_only_once_the_game_is_over(client, alice, bob):
    game = start_game(alice, bob, end_score=15)
    client.force_login(alice)
    response = client.get(reverse("games:game_record", args=[game.pk]))
    assert response.status_code == 403 and response.json()["error"]["code"] == "game_not_finished"
    play_to_end(game, [alice, bob])
    game.refresh_from_db()
    record = client.get(reverse("games:game_record", args=[game.pk])).json()
    assert record == game_record(game)
    assert engine.from_record(record).finished
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Game over" in page and "Rematch" in page


def test_private_game_is_hidden_from_strangers(client, alice, bob, charlie):
    lobby = services.lobby_create(host=alice, name="S", is_public=False)
    services.lobby_join(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    game = services.lobby_start(lobby_id=lobby.pk, user=alice)
    client.force_login(charlie)
    assert client.get(reverse("games:game", args=[game.pk])).status_code == 404
    assert client.get(reverse("games:game_state", args=[game.pk])).status_code == 404


def test_json_is_plain_json(client, alice, bob):
    game = start_game(alice, bob)
    client.force_login(alice)
    response = client.get(reverse("games:game_state", args=[game.pk]))
    assert response["Content-Type"] == "application/json"
    json.loads(response.content)


def test_a_finished_lobby_links_its_players_to_the_final_scores(client, alice, bob):
    game = start_game(alice, bob, end_score=10)
    play_to_end(game, [alice, bob])
    lobby = Lobby.objects.get(pk=game.lobby_id)
    assert lobby.status == Lobby.Status.FINISHED
    client.force_login(bob)
    page = client.get(reverse("games:lobby", args=[lobby.pk])).content.decode()
    assert "This lobby's game is over." in page
    assert f'<a id="game-results" href="/games/{game.pk}/">See the final scores</a>' in page
    assert client.get(f"/games/{game.pk}/").status_code == 200
