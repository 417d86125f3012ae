"""Bots in lobbies: the host adds and removes them; one click starts a game against bots."""

import pytest

from core.errors import BadRequest, LobbyFull, LobbyNotOpen, NotHost
from games import services
from games.models import Game, GamePlayer, Lobby

pytestmark = pytest.mark.django_db


@pytest.fixture
def lobby(alice):
    return services.lobby_create(host=alice, name="Bots welcome", seat_count=4)


def test_the_host_adds_and_removes_bots(lobby, alice):
    services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=1, level="easy")
    services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=2, level="strong")
    assert [s.bot_level for s in lobby.seats.all()] == ["", "easy", "strong", ""]
    services.lobby_remove_bot(lobby_id=lobby.pk, host=alice, seat_index=1)
    assert [s.bot_level for s in lobby.seats.all()] == ["", "", "strong", ""]


def test_it_refuses_bad_bot_requests(lobby, alice, bob):
    with pytest.raises(NotHost):
        services.lobby_add_bot(lobby_id=lobby.pk, host=bob, seat_index=1, level="easy")
    with pytest.raises(BadRequest, match="Choose a bot level"):
        services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=1, level="godlike")
    with pytest.raises(LobbyFull):
        services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=0, level="easy")
    with pytest.raises(BadRequest, match="no such seat"):
        services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=9, level="easy")
    with pytest.raises(BadRequest, match="no bot"):
        services.lobby_remove_bot(lobby_id=lobby.pk, host=alice, seat_index=1)
    services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=1, level="easy")
    with pytest.raises(NotHost):
        services.lobby_remove_bot(lobby_id=lobby.pk, host=bob, seat_index=1)
    services.lobby_join(lobby_id=lobby.pk, user=bob)
    assert lobby.seats.get(index=2).user == bob  # a bot's seat is not free
    services.lobby_start(lobby_id=lobby.pk, user=alice)
    with pytest.raises(LobbyNotOpen):
        services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=3, level="easy")


def test_bots_are_named_by_level_and_scheduled(lobby, alice):
    for seat, level in ((1, "medium"), (2, "medium"), (3, "easy")):
        services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=seat, level=level)
    game = services.lobby_start(lobby_id=lobby.pk, user=alice)
    names = list(GamePlayer.objects.filter(game=game).values_list("name", "bot_level"))
    assert names == [
        ("alice", ""),
        ("Medium bot 1", "medium"),
        ("Medium bot 2", "medium"),
        ("Easy bot 1", "easy"),
    ]
    assert game.bot_due_at is not None  # the bots have cards to reveal


def test_one_click_game_against_bots(alice):
    game = services.bot_game_create(user=alice, bots=2, level="strong", end_score=30)
    lobby = Lobby.objects.get(pk=game.lobby_id)
    assert not lobby.is_public and lobby.status == "playing" and lobby.end_score == 30
    assert [p.bot_level for p in game.players.all()] == ["", "strong", "strong"]
    with pytest.raises(Exception, match="1 to 7 bots"):
        services.bot_game_create(user=alice, bots=8)


def test_the_lobby_grace_defaults_to_the_setting(alice, settings):
    settings.SKYJO_DISCONNECT_GRACE = 42
    assert services.lobby_create(host=alice, name="x").disconnect_grace == 42
    assert services.lobby_create(host=alice, name="y", disconnect_grace=5).disconnect_grace == 5


def test_home_page_form_starts_a_game_against_bots(client, alice):
    client.force_login(alice)
    assert b'id="play-bots"' in client.get("/").content
    response = client.post("/play/bots/", {"bots": "3", "level": "medium", "end_score": "50"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.players.count() == 4
    assert client.post("/play/bots/", {"bots": "9", "level": "x"}).status_code == 302
    assert Game.objects.count() == 1


def test_lobby_page_shows_bot_controls_to_the_host_only(client, lobby, alice, bob):
    client.force_login(alice)
    page = client.get(f"/lobbies/{lobby.pk}/").content.decode()
    assert page.count("Add bot") == 3
    client.post(f"/lobbies/{lobby.pk}/bots/1/add/", {"level": "easy"})
    page = client.get(f"/lobbies/{lobby.pk}/").content.decode()
    assert "Bot (Easy)" in page and page.count("Add bot") == 2
    client.post(f"/lobbies/{lobby.pk}/bots/1/remove/")
    assert lobby.seats.get(index=1).is_empty
    client.force_login(bob)
    assert "Add bot" not in client.get(f"/lobbies/{lobby.pk}/").content.decode()


def test_the_expert_level_is_offered_like_the_others(client, alice, lobby):
    from games.labels import BOT_LEVEL_LABELS, player_label, table_label
    from web.games.presenters import LEVEL_CHOICES

    assert ("expert", BOT_LEVEL_LABELS["expert"]) in LEVEL_CHOICES
    services.lobby_add_bot(lobby_id=lobby.pk, host=alice, seat_index=1, level="expert")
    assert [s.bot_level for s in lobby.seats.all()] == ["", "expert", "", ""]
    game = services.bot_game_create(user=alice, bots=1, level="expert", end_score=30)
    (bot,) = [p for p in game.players.all() if p.bot_level]
    assert bot.bot_level == "expert" and player_label(bot.name) == "Expert bot 1"
    assert table_label(Lobby.objects.get(pk=game.lobby_id).name) == "alice vs 1 expert bot"
