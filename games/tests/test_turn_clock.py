"""The turn clock (games.clock): a lobby's seconds per turn, and what happens when they run out."""

import pytest
from django.urls import reverse

from games import services
from games.errors import InvalidLobby
from games.models import Lobby

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seconds", [0, 15, 30, 60, 120])
def test_a_lobby_keeps_its_turn_clock(alice, seconds):
    lobby = services.lobby_create(host=alice, name="t", turn_clock=seconds)
    assert Lobby.objects.get(pk=lobby.pk).turn_clock == seconds


@pytest.mark.parametrize("seconds", [-1, 1, 45, 3600, "30", 30.0, None])
def test_it_refuses_a_turn_clock_not_offered(alice, seconds):
    with pytest.raises(InvalidLobby):
        services.lobby_create(host=alice, name="t", turn_clock=seconds)


def test_the_clock_is_off_unless_asked_for(alice):
    assert services.lobby_create(host=alice, name="t").turn_clock == 0
    game = services.bot_game_create(user=alice, bots=2)
    assert game.lobby.turn_clock == 0  # alone against bots, nobody waits for you


def test_the_form_offers_the_clock_preselected_at_60_seconds(client, alice):
    client.force_login(alice)
    page = client.get(reverse("games:lobbies")).content.decode()
    assert '<option value="60" selected>60 seconds</option>' in page
    assert '<option value="0">Off</option>' in page


def test_the_form_sets_the_clock_and_the_lobby_page_tells_it(client, alice):
    client.force_login(alice)
    form = {"name": "Quick", "seat_count": "2", "end_score": "100", "turn_clock": "30"}
    response = client.post(reverse("games:lobbies"), form)
    lobby = Lobby.objects.get()
    assert response.status_code == 302 and lobby.turn_clock == 30
    page = client.get(reverse("games:lobby", args=[lobby.pk])).content.decode()
    assert "Turn clock: <strong>30 seconds</strong> per turn" in page


def test_a_form_without_the_field_gets_no_clock(client, alice):
    client.force_login(alice)
    client.post(reverse("games:lobbies"), {"name": "Old", "seat_count": "2", "end_score": "100"})
    lobby = Lobby.objects.get()
    assert lobby.turn_clock == 0
    page = client.get(reverse("games:lobby", args=[lobby.pk])).content.decode()
    assert "No turn clock" in page


def test_the_form_refuses_a_clock_not_offered(client, alice):
    client.force_login(alice)
    form = {"name": "Odd", "seat_count": "2", "end_score": "100", "turn_clock": "45"}
    response = client.post(reverse("games:lobbies"), form)
    assert response.status_code == 200 and not Lobby.objects.exists()
