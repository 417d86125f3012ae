"""A ban from the moderation pages closes every open socket of the player within a second
(measured and printed), and the player reads the moderator's reason."""

import time

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from games.tests.helpers import start_game
from games.tests.test_access_end import assert_closed, assert_open, open_socket, user_sockets
from games.tests.ws import db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def test_a_ban_from_the_queue_closes_the_players_sockets_within_a_second(alice, bob, maud):
    game = await db(start_game)(alice, bob)
    lobby_id = await db(lambda: game.lobby_id)()
    comms = await user_sockets(await db(logged_in)(bob), game, lobby_id)
    alice_socket = await open_socket(
        await db(logged_in)(alice), f"/ws/games/{game.pk}/?format=json"
    )
    moderator = await db(logged_in)(maud)
    started = time.monotonic()
    response = await sync_to_async(moderator.post)(
        reverse("moderation:act", args=["ban", bob.pk]),
        {"duration": "7d", "reason": "Insults in chat"},
    )
    assert response.status_code == 302
    # Each socket must close before a 1 s receive timeout; the time is printed.
    await assert_closed(comms, started, "ban from the moderation page")
    await assert_open(alice_socket)
    await alice_socket.disconnect()
    page = await sync_to_async(Client().post)(
        reverse("login"), {"username": "bob", "password": "correct-horse-42"}
    )
    assert "Insults in chat" in page.content.decode()
