"""The turns socket (``/ws/turns/``): the header's 'your turn' count, and the home page's list,
pushed after ``games.publish.turns_changed``; nothing before, nothing for another user."""

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.models import AnonymousUser

from games import publish
from games.models import GamePlayer
from games.tests.helpers import start_game
from games.tests.ws import connect, db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _wait_for(game, user) -> None:
    GamePlayer.objects.filter(game=game, user=user).update(waiting=True)


async def _changed(user_id: int) -> None:
    await get_channel_layer().group_send(publish.turns_group(user_id), {"type": "turns.changed"})


async def test_a_visitor_is_refused():
    comm = await connect(AnonymousUser(), "/ws/turns/", expect=False)
    await comm.disconnect()


async def test_a_change_pushes_the_new_count_and_another_users_does_not(alice, bob):
    game = await db(start_game)(alice, bob, move_days=2)
    comm = await connect(alice, "/ws/turns/")
    assert await comm.receive_nothing(timeout=0.2)  # nothing until a change
    await db(_wait_for)(game, alice)
    await _changed(alice.pk)
    frame = await comm.receive_from(timeout=5)
    assert 'id="turns-count"' in frame and 'data-count="1"' in frame
    assert 'data-notify="Your turn in Test table"' in frame
    assert f'data-url="/games/{game.pk}/"' in frame
    assert "your-turn-list" not in frame  # not the home page
    await _changed(bob.pk)
    assert await comm.receive_nothing(timeout=0.3)
    await comm.disconnect()


async def test_the_home_page_socket_pushes_the_list_too(alice, bob):
    game = await db(start_game)(alice, bob, move_days=1)
    comm = await connect(alice, "/ws/turns/?list=1")
    await db(_wait_for)(game, alice)
    await sync_to_async(publish.turns_changed)([alice.pk])
    frame = await comm.receive_from(timeout=5)
    assert 'data-count="1"' in frame
    assert 'id="your-turn-list"' in frame and "against bob" in frame
    await comm.disconnect()


async def test_a_user_keeps_a_game_and_a_turns_socket_in_several_tabs(alice, bob, settings):
    """The default cap leaves room for a game socket and the turns socket in a few tabs."""
    settings.RATELIMIT_ENABLE = True  # the caps count
    game = await db(start_game)(alice, bob)
    tabs = []
    for _tab in range(4):
        play = await connect(alice, f"/ws/games/{game.pk}/?format=json")
        assert '"version"' in await play.receive_from(timeout=5)  # its state, not a 4430
        turns = await connect(alice, "/ws/turns/")
        assert await turns.receive_nothing(timeout=0.05)  # open, not closed with 4430
        tabs += [play, turns]
    for comm in tabs:
        await comm.disconnect()
