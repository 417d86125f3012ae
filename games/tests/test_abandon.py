"""The only human of a game against bots may end it (services.game_abandon, the game page's
"End this game"): stopped and voided as a moderator's stop is, its lobby finished, every socket
told. A game with another human seat is not one player's to end."""

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.errors import GameOver, NotAPlayer, NotYoursToEnd, TooManyTables
from games.models import Game, Lobby
from games.tests.helpers import play_to_end, start_game
from games.tests.ws import db, game_socket, receive_json

pytestmark = pytest.mark.django_db


def snapshot_of(game_id):
    game = Game.objects.select_related("lobby").get(pk=game_id)
    return game.status, game.voided, game.version, game.bot_due_at, game.lobby.status


def test_the_player_ends_their_game_against_bots(alice):
    game = services.bot_game_create(user=alice, bots=2)
    services.game_abandon(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert (game.status, game.voided, game.counts) == (Game.Status.ABORTED, True, False)
    assert game.bot_due_at is None and game.finished_at is not None
    assert game.lobby.status == Lobby.Status.FINISHED
    assert not Game.objects.filter(status=Game.Status.PLAYING, bot_due_at__isnull=False).exists()


@pytest.mark.parametrize("who", ["bob", "charlie"])
def test_it_refuses_a_stranger_or_a_player_of_a_human_game_changing_nothing(
    alice, bob, charlie, who
):
    bots = services.bot_game_create(user=alice, bots=1)
    people = start_game(alice, bob)
    before = {g.pk: snapshot_of(g.pk) for g in (bots, people)}
    with pytest.raises(NotAPlayer):
        services.game_abandon(game_id=bots.pk, user={"bob": bob, "charlie": charlie}[who])
    with pytest.raises(NotYoursToEnd) as refused:
        services.game_abandon(game_id=people.pk, user=alice)
    assert "not one player's to end" in refused.value.message
    assert {g.pk: snapshot_of(g.pk) for g in (bots, people)} == before


def test_it_refuses_a_game_over_changing_nothing(alice, bob):
    game = start_game(alice, bob, end_score=20)
    play_to_end(game, [alice, bob])
    ended = services.bot_game_create(user=alice, bots=1)
    services.game_abandon(game_id=ended.pk, user=alice)
    before = {g.pk: snapshot_of(g.pk) for g in (game, ended)}
    for over in (game, ended):
        with pytest.raises(GameOver):
            services.game_abandon(game_id=over.pk, user=alice)
    assert {g.pk: snapshot_of(g.pk) for g in (game, ended)} == before


def test_ending_a_bot_game_frees_its_table(settings, alice):
    settings.SKYJO_MAX_TABLES = 2
    first = services.bot_game_create(user=alice, bots=1)
    services.bot_game_create(user=alice, bots=1)
    with pytest.raises(TooManyTables) as refused:
        services.bot_game_create(user=alice, bots=1)
    assert "can be ended from its page" in refused.value.message
    services.game_abandon(game_id=first.pk, user=alice)
    services.bot_game_create(user=alice, bots=1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_every_socket_hears_of_the_end_with_a_new_version(alice, moderator):
    game = await db(services.bot_game_create)(user=alice, bots=1)
    player, first = await game_socket(alice, game.pk)
    watcher, _ = await game_socket(moderator, game.pk)
    await db(services.game_abandon)(game_id=game.pk, user=alice)
    for comm in (player, watcher):
        frame = await receive_json(comm)
        assert frame["version"] == first["version"] + 1
        await comm.disconnect()
    assert (await Game.objects.aget(pk=game.pk)).version == first["version"] + 1


# ------------------------------------------------------------------------------- the page


def test_the_page_offers_the_button_to_the_player_of_a_bot_game_alone(client, alice, bob):
    bots = services.bot_game_create(user=alice, bots=1)
    people = start_game(alice, bob)
    client.force_login(alice)
    assert 'id="end-game"' in client.get(reverse("games:game", args=[bots.pk])).text
    assert 'id="end-game"' not in client.get(reverse("games:game", args=[people.pk])).text
    services.game_abandon(game_id=bots.pk, user=alice)
    assert 'id="end-game"' not in client.get(reverse("games:game", args=[bots.pk])).text


def test_the_view_ends_the_game_and_goes_home_with_a_message(client, alice):
    game = services.bot_game_create(user=alice, bots=1)
    client.force_login(alice)
    page = client.post(reverse("games:abandon", args=[game.pk]), follow=True)
    assert page.redirect_chain == [(reverse("games:home"), 302)]
    assert "The game is ended" in page.text
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED


def test_the_view_takes_a_post_alone_and_a_login(client, alice):
    game = services.bot_game_create(user=alice, bots=1)
    url = reverse("games:abandon", args=[game.pk])
    assert client.post(url).status_code == 302  # to the login page
    client.force_login(alice)
    assert client.get(url).status_code == 405
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_the_view_needs_the_csrf_token(alice):
    game = services.bot_game_create(user=alice, bots=1)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post(reverse("games:abandon", args=[game.pk])).status_code == 403
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_the_view_tells_a_stranger_or_a_player_of_a_human_game_why_not(client, alice, bob):
    bots = services.bot_game_create(user=alice, bots=1)
    people = start_game(alice, bob)
    client.force_login(bob)
    page = client.post(reverse("games:abandon", args=[bots.pk]), follow=True)
    assert page.redirect_chain == [(reverse("games:home"), 302)]
    assert "You are not a player in this game" in page.text
    page = client.post(reverse("games:abandon", args=[people.pk]), follow=True)
    assert page.redirect_chain == [(reverse("games:game", args=[people.pk]), 302)]
    assert "not one player&#x27;s to end" in page.text
    assert Game.objects.filter(status=Game.Status.PLAYING).count() == 2


def test_the_page_of_a_game_its_player_ended_blames_no_moderator(client, alice):
    game = services.bot_game_create(user=alice, bots=1)
    services.game_abandon(game_id=game.pk, user=alice)
    client.force_login(alice)
    page = client.get(reverse("games:game", args=[game.pk])).text
    assert "This game was stopped before its end." in page
    assert "moderator" not in page


def test_a_stopped_game_offers_its_player_no_card_to_play(client, alice):
    """Stopped in the middle of the reveals, the engine's view still has legal reveals: the
    page offered them (every face-down card marked playable), for a game that takes no move."""
    game = services.bot_game_create(user=alice, bots=1)
    client.force_login(alice)
    assert 'data-legal="[]"' not in client.get(reverse("games:game", args=[game.pk])).text
    services.game_abandon(game_id=game.pk, user=alice)
    assert 'data-legal="[]"' in client.get(reverse("games:game", args=[game.pk])).text
