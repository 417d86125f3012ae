"""Every URL of a lobby or a game (pages, JSON, replay, analysis, the forms' POSTs, sockets)
answers someone with no business in a private one exactly as it answers an id that nothing
has: a 404 with the same words, a socket closed with 4404. A refusal that named the reason
("This lobby is private", "Only the host can start the game", "You are not a player in this
game") told a stranger counting ids which private lobbies and games exist. The seated, the
invited (with the code) and moderators keep what they had."""

import re

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from chat import services as chat_services
from chat.models import Message
from core.errors import NotFound
from games import services
from games.models import Game, Lobby, Seat
from games.tests.helpers import play_to_end, start_game
from games.tests.ws import ROUTER, db

pytestmark = pytest.mark.django_db

MISSING = 987654

LOBBY_URLS = [
    ("get", "/lobbies/{}/"),
    ("post", "/lobbies/{}/join/"),
    ("post", "/lobbies/{}/leave/"),
    ("post", "/lobbies/{}/start/"),
    ("post", "/lobbies/{}/remove/1/"),
    ("post", "/lobbies/{}/bots/1/add/"),
    ("post", "/lobbies/{}/bots/1/remove/"),
]
GAME_URLS = [
    ("get", "/games/{}/"),
    ("get", "/games/{}/state.json"),
    ("get", "/games/{}/record.json"),
    ("get", "/games/{}/replay/"),
    ("get", "/games/{}/analysis/"),
    ("post", "/games/{}/rematch/"),
    ("post", "/games/{}/end/"),
    ("get", "/report/game/{}/"),
]


def answer(client, method, url):
    """What the visitor learns: the status, where they are sent, the words on the page."""
    response = getattr(client, method)(url, {"level": "easy"}, follow=True)
    text = re.sub(r"[A-Za-z0-9]{64}", "TOKEN", response.content.decode())  # the CSRF token
    text = text.replace(url, "URL")
    return response.status_code, response.redirect_chain, text


@pytest.fixture
def private_lobby(alice, bob):
    lobby = services.lobby_create(host=alice, name="Secret", seat_count=3, is_public=False)
    services.lobby_join(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    return lobby


@pytest.fixture
def private_games(settings, alice, bob):
    """A finished private game and a running one, between alice and bob."""
    settings.SKYJO_MAX_TABLES = 10
    finished = start_game(alice, bob, end_score=10)
    play_to_end(finished, [alice, bob])
    running = start_game(alice, bob)
    Lobby.objects.filter(games__in=[finished, running]).update(is_public=False)
    return finished, running


def stranger(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(("method", "url"), LOBBY_URLS)
def test_a_private_lobby_answers_a_stranger_as_a_missing_one(private_lobby, charlie, method, url):
    seats = list(Seat.objects.filter(lobby=private_lobby).values_list("user_id", "bot_level"))
    client = stranger(charlie)
    found = answer(client, method, url.format(private_lobby.pk))
    assert found[0] == 404
    assert found == answer(client, method, url.format(MISSING))
    after = list(Seat.objects.filter(lobby=private_lobby).values_list("user_id", "bot_level"))
    assert after == seats and Lobby.objects.get(pk=private_lobby.pk).status == Lobby.Status.OPEN


@pytest.mark.parametrize(("method", "url"), GAME_URLS)
def test_a_private_game_answers_a_stranger_as_a_missing_one(private_games, charlie, method, url):
    client = stranger(charlie)
    missing = answer(client, method, url.format(MISSING))
    assert missing[0] == 404
    for game in private_games:
        assert answer(client, method, url.format(game.pk)) == missing
    assert Game.objects.filter(status=Game.Status.PLAYING).count() == 1
    assert not Game.objects.filter(rematch__isnull=False).exists()


def test_the_invited_and_the_seated_keep_their_way_in(client, private_lobby, alice, bob, charlie):
    code = private_lobby.invite_code
    client.force_login(charlie)
    joined = client.post(f"/lobbies/{private_lobby.pk}/join/", {"invite_code": code})
    assert joined.status_code == 302
    assert Seat.objects.filter(lobby=private_lobby, user=charlie).exists()
    client.force_login(bob)
    assert client.post(f"/lobbies/{private_lobby.pk}/leave/").status_code == 302
    assert not Seat.objects.filter(lobby=private_lobby, user=bob).exists()
    client.force_login(alice)
    started = client.post(f"/lobbies/{private_lobby.pk}/start/")
    assert started.status_code == 302 and started.url.startswith("/games/")


def test_players_and_moderators_still_see_a_private_game(private_games, alice, moderator):
    finished, _running = private_games
    for user in (alice, moderator):
        client = stranger(user)
        for url in ("/games/{}/", "/games/{}/record.json", "/games/{}/replay/"):
            assert client.get(url.format(finished.pk)).status_code == 200
    rematch = stranger(alice).post(f"/games/{finished.pk}/rematch/")
    assert rematch.status_code == 302 and rematch.url != f"/games/{finished.pk}/"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["lobbies", "games"])
async def test_a_private_socket_closes_on_a_stranger_as_a_missing_one(alice, bob, charlie, kind):
    lobby = await db(services.lobby_create)(
        host=alice, name="Secret", seat_count=2, is_public=False
    )
    target = lobby.pk
    if kind == "games":
        await db(services.lobby_join)(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
        target = (await db(services.lobby_start)(lobby_id=lobby.pk, user=alice)).pk
    closes = []
    for pk in (target, MISSING):
        comm = WebsocketCommunicator(ROUTER, f"/ws/{kind}/{pk}/")
        comm.scope["user"], comm.scope["cookies"] = charlie, {}
        closes.append(await comm.connect(timeout=5))
        await comm.disconnect()
    assert closes == [(False, 4404), (False, 4404)]


def test_a_moderator_sees_a_private_lobby_and_is_offered_no_seat_without_its_invite(
    client, private_lobby, moderator, alice
):
    client.force_login(moderator)
    page = client.get(f"/lobbies/{private_lobby.pk}/")
    assert page.status_code == 200 and "Secret" in page.text
    assert 'id="join-lobby"' not in page.text and private_lobby.invite_code not in page.text
    game = services.lobby_start(lobby_id=private_lobby.pk, user=alice)
    assert client.get(f"/lobbies/{private_lobby.pk}/").url == f"/games/{game.pk}/"


def test_an_invitee_watches_a_private_game_that_started_without_them(private_lobby, alice, charlie):
    """Failed before: "This game has already started without you", and the game's address
    answered 404 to the invite link's holder."""
    game = services.lobby_start(lobby_id=private_lobby.pk, user=alice)
    client = stranger(charlie)
    code = private_lobby.invite_code
    invited = client.get(f"/lobbies/invite/{code}/")
    assert invited.status_code == 302
    assert invited.url == f"/games/{game.pk}/?invite={code}"
    page = client.get(invited.url).content.decode()
    assert "You are watching this game." in page
    assert f'ws-connect="/ws/games/{game.pk}/?presence=1&amp;invite={code}"' in page
    # Without the code, or with another, the same answer as for a game that is not there.
    missing = answer(client, "get", f"/games/{MISSING}/")
    assert answer(client, "get", f"/games/{game.pk}/") == missing
    assert answer(client, "get", f"/games/{game.pk}/?invite=nope") == missing
    # With it, the spectators' chat too.
    message = chat_services.chat_post(user=charlie, text="gl", game_id=game.pk, invite_code=code)
    assert message.channel == Message.Channel.SPECTATORS
    with pytest.raises(NotFound):
        chat_services.chat_post(user=charlie, text="gl", game_id=game.pk)


def test_an_invitee_opens_the_replay_and_analysis_of_a_private_game_with_the_code(
    private_lobby, alice, bob, charlie
):
    """Failed before: the replay and the analysis summary read no ``?invite=``: a 404."""
    game = services.lobby_start(lobby_id=private_lobby.pk, user=alice)
    play_to_end(game, [alice, bob])
    client, code = stranger(charlie), private_lobby.invite_code
    for url in (f"/games/{game.pk}/replay/", f"/games/{game.pk}/analysis/"):
        assert client.get(f"{url}?invite={code}").status_code in (200, 286)
        assert client.get(url).status_code == 404
        assert client.get(f"{url}?invite=nope").status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_invitees_game_socket_opens_with_the_code(alice, bob, charlie):
    lobby = await db(services.lobby_create)(
        host=alice, name="Secret", seat_count=2, is_public=False
    )
    await db(services.lobby_join)(lobby_id=lobby.pk, user=bob, invite_code=lobby.invite_code)
    game = await db(services.lobby_start)(lobby_id=lobby.pk, user=alice)
    comm = WebsocketCommunicator(
        ROUTER, f"/ws/games/{game.pk}/?format=json&invite={lobby.invite_code}"
    )
    comm.scope["user"], comm.scope["cookies"] = charlie, {}
    assert (await comm.connect(timeout=5))[0] is True
    first = await comm.receive_json_from(timeout=5)
    assert first["version"] == game.version and first["players"][0]["grid"][0] == "?"
    await comm.disconnect()
