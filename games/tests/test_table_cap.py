"""How many tables one player may have at once (SKYJO_MAX_TABLES: open lobbies and games in
play they sit in): a new lobby, a seat, a "Play against bots" game and a rematch past it are
refused. Without it one account kept opening bot games (20 an hour by the creation limit),
each played on by the bot runner to its end, however long, whether anyone watched or not, and
could sit in every open lobby (120 joins an hour), an absent player in every game started."""

import pytest
from django.urls import reverse

from core.errors import TooManyTables
from games import services
from games.models import Game, Lobby, Seat
from games.tests.helpers import play_to_end, start_game

pytestmark = pytest.mark.django_db


def lobby_form(name="Table"):
    return {"name": name, "seat_count": "4", "is_public": "on", "end_score": "100"}


def bot_form():
    return {"bots": "7", "level": "strong", "end_score": "1000"}


def test_it_refuses_a_sixth_lobby_or_bot_game_by_default(client, alice):
    client.force_login(alice)
    for n in range(3):
        assert client.post(reverse("games:lobbies"), lobby_form(f"T{n}")).status_code == 302
    for _ in range(2):
        assert client.post(reverse("games:play_bots"), bot_form()).status_code == 302
    refused = client.post(reverse("games:lobbies"), lobby_form("One too many"))
    assert refused.status_code == 200
    assert "You already have 5 tables" in refused.content.decode()
    page = client.post(reverse("games:play_bots"), bot_form(), follow=True)
    assert page.redirect_chain[-1][0] == reverse("games:home")
    assert "You already have 5 tables" in page.content.decode()
    assert Lobby.objects.filter(host=alice).count() == 5
    assert Game.objects.filter(status=Game.Status.PLAYING).count() == 2


def test_a_lobby_left_or_a_game_over_frees_its_place(settings, alice, bob):
    settings.SKYJO_MAX_TABLES = 2
    lobby = services.lobby_create(host=alice, name="Open", seat_count=2)
    game = start_game(alice, bob)
    with pytest.raises(TooManyTables):
        services.lobby_create(host=alice, name="Third", seat_count=2)
    with pytest.raises(TooManyTables):
        services.bot_game_create(user=alice, bots=1)
    services.lobby_leave(lobby_id=lobby.pk, user=alice)  # alone in it: closed
    services.lobby_create(host=alice, name="Again", seat_count=2)
    play_to_end(game, [alice, bob])
    services.bot_game_create(user=alice, bots=1)


def test_a_rematch_past_it_is_refused_to_whoever_is_at_it(settings, alice, bob, charlie):
    settings.SKYJO_MAX_TABLES = 2
    finished = start_game(alice, bob)
    play_to_end(finished, [alice, bob])
    start_game(charlie, alice)
    start_game(charlie, alice)  # alice sits in two games in play, which charlie hosts
    with pytest.raises(TooManyTables):
        services.game_rematch(game_id=finished.pk, user=alice)
    rematch = services.game_rematch(game_id=finished.pk, user=bob)
    assert services.game_rematch(game_id=finished.pk, user=alice) == rematch  # made already


def test_a_seat_past_it_is_refused(client, settings, alice, bob, charlie):
    settings.SKYJO_MAX_TABLES = 2
    first, second, third = (
        services.lobby_create(host=host, name=f"T{n}", seat_count=3)
        for n, host in enumerate((bob, charlie, bob))
    )
    client.force_login(alice)
    for lobby in (first, second):
        client.post(reverse("games:lobby_join", args=[lobby.pk]))
    page = client.post(reverse("games:lobby_join", args=[third.pk]), follow=True)
    assert "You already have 2 tables" in page.content.decode()
    assert list(Seat.objects.filter(user=alice).values_list("lobby", flat=True)) == [
        first.pk,
        second.pk,
    ]
    client.post(reverse("games:lobby_leave", args=[first.pk]))
    client.post(reverse("games:lobby_join", args=[third.pk]))
    assert Seat.objects.filter(user=alice, lobby=third).exists()


def test_zero_or_the_limits_switched_off_is_no_cap(settings, alice):
    settings.SKYJO_MAX_TABLES = 0
    for n in range(3):
        services.lobby_create(host=alice, name=f"T{n}", seat_count=2)
    settings.SKYJO_MAX_TABLES, settings.RATELIMIT_ENABLE = 1, False
    services.lobby_create(host=alice, name="More", seat_count=2)
    assert Lobby.objects.filter(host=alice, status=Lobby.Status.OPEN).count() == 4


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_rematch_refused_on_the_game_socket_says_so_in_the_players_language(
    settings, alice, bob, charlie
):
    """The refusal carries the limit: worded when it is read, in the socket's language."""
    from games.tests.ws import db, game_socket, receive_json, send

    settings.SKYJO_MAX_TABLES = 1
    alice.language = "sv"
    await db(alice.save)(update_fields=["language"])
    finished = await db(start_game)(alice, bob)
    await db(play_to_end)(finished, [alice, bob])
    await db(start_game)(charlie, alice)
    a, _ = await game_socket(alice, finished.pk)
    await send(a, {"rematch": True})
    error = (await receive_json(a))["error"]
    assert error["code"] == "too_many_tables"
    assert error["message"].startswith("Du har redan 1 bord")
    await a.disconnect()
