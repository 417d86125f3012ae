"""The live page's socket: the standings pushed in batches, a player's own table."""

import asyncio
from datetime import timedelta

import pytest
from django.utils import timezone

from games.tests.ws import connect, db
from tournaments.models import Tournament
from tournaments.services import tournament_create, tournament_join, tournaments_tick

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def live_arena(by, name: str):
    """A private arena of ``by``'s, starting now, with three easy bots."""
    return await db(tournament_create)(
        by=by,
        name=name,
        kind="arena",
        starts_at=timezone.now(),
        duration=30,
        bots=3,
        bot_level="easy",
        turn_clock=15,
        end_score=10,
    )


async def test_standings_are_pushed_batched_and_a_seated_player_hears_of_their_table(alice, bob):
    made = await live_arena(alice, "Live")
    page = await connect(alice, f"/ws/tournaments/{made.pk}/?invite={made.invite_code}")
    first = await page.receive_from(timeout=5)
    assert 'id="tournament-live"' in first and "Medium" not in first

    def join_both():  # two changes in a row (one thread hop, as two quick requests): one push
        for user in (alice, bob):
            tournament_join(tournament_id=made.pk, user=user, invite_code=made.invite_code)

    await db(join_both)()
    pushed = await page.receive_from(timeout=5)
    assert "bob" in pushed and "alice" in pushed
    await asyncio.sleep(0.2)
    assert await page.receive_nothing(timeout=0.5)
    await db(tournaments_tick)(now=made.starts_at)
    frames = [await page.receive_from(timeout=5), await page.receive_from(timeout=5)]
    mine = next(f for f in frames if 'id="my-table"' in f)
    assert 'data-new="1"' in mine and "/games/" in mine
    await page.disconnect()


async def test_the_push_at_the_end_shows_the_podium_and_takes_the_buttons_away(alice):
    made = await db(tournament_create)(
        by=alice, name="Last", kind="arena", starts_at=timezone.now(), duration=30
    )
    await db(tournament_join)(tournament_id=made.pk, user=alice, invite_code=made.invite_code)
    page = await connect(alice, f"/ws/tournaments/{made.pk}/?invite={made.invite_code}")
    first = await page.receive_from(timeout=5)
    assert 'id="entry-actions"' not in first  # the page's own buttons stay while it runs
    await db(tournaments_tick)(now=made.starts_at + timedelta(minutes=31))  # over
    pushed = await page.receive_from(timeout=5)
    assert 'id="podium"' in pushed
    actions = pushed[pushed.index('id="entry-actions"') :]
    assert actions.startswith('id="entry-actions"></div>')  # emptied: no join, pause, withdraw
    assert "<button" not in pushed and "<form" not in pushed
    await page.disconnect()


async def test_a_private_tournament_socket_refuses_strangers(alice, bob):
    made = await db(tournament_create)(
        by=alice, name="P", kind="arena", starts_at=timezone.now(), duration=30
    )
    await connect(bob, f"/ws/tournaments/{made.pk}/", expect=False)
    await connect(bob, f"/ws/tournaments/{made.pk}/?invite=wrong", expect=False)
    ok = await connect(bob, f"/ws/tournaments/{made.pk}/?invite={made.invite_code}")
    await ok.disconnect()
    assert await db(Tournament.objects.count)() == 1


async def test_the_tournament_chat_is_the_chat_app_in_its_room(alice, bob):
    import json

    made = await db(tournament_create)(
        by=alice, name="Chatty", kind="arena", starts_at=timezone.now(), duration=30
    )
    code = made.invite_code
    one = await connect(alice, f"/ws/tournaments/{made.pk}/?invite={code}")
    two = await connect(bob, f"/ws/tournaments/{made.pk}/?invite={code}")
    await one.receive_from(timeout=5)
    await two.receive_from(timeout=5)
    await one.send_to(text_data=json.dumps({"chat": "good luck all"}))
    assert "good luck all" in await two.receive_from(timeout=5)
    assert "good luck all" in await one.receive_from(timeout=5)
    from chat.models import Message

    message = await db(Message.objects.get)()
    assert message.lobby_id == made.room_id
    await one.disconnect()
    await two.disconnect()


async def test_the_tournament_chat_is_headed_so_also_when_redrawn(alice):
    from chat.services import chat_enable

    made = await db(tournament_create)(
        by=alice, name="Chatty", kind="arena", starts_at=timezone.now(), duration=30
    )
    page = await connect(alice, f"/ws/tournaments/{made.pk}/?invite={made.invite_code}")
    await page.receive_from(timeout=5)
    await db(chat_enable)(user=alice, enabled=False)  # the panel is redrawn on the socket
    panel = await page.receive_from(timeout=5)
    assert 'id="chat"' in panel and "Tournament chat" in panel and "Lobby chat" not in panel
    await page.disconnect()


async def test_a_player_seated_before_the_socket_opens_hears_of_their_table_once(alice, bob):
    made = await live_arena(alice, "Gap")
    for user in (alice, bob):
        await db(tournament_join)(tournament_id=made.pk, user=user, invite_code=made.invite_code)
    await db(tournaments_tick)(now=made.starts_at)  # seated while no socket listens
    base = f"/ws/tournaments/{made.pk}/?invite={made.invite_code}"
    page = await connect(alice, base + "&table=")  # the page was loaded before the seating
    await page.receive_from(timeout=5)
    mine = await page.receive_from(timeout=5)
    assert 'id="my-table"' in mine and 'data-new="1"' in mine
    game_id = mine.split('data-game="')[1].split('"')[0]
    await page.disconnect()
    again = await connect(alice, base + f"&table={game_id}")  # the page shows that table
    assert 'id="tournament-live"' in await again.receive_from(timeout=5)
    assert await again.receive_nothing(timeout=0.5)
    await again.disconnect()
