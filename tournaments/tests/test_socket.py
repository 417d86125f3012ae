"""The live page's socket: the standings pushed in batches, a player's own table."""

import asyncio

import pytest
from django.utils import timezone

from games.tests.ws import connect, db
from tournaments.models import Tournament
from tournaments.services import tournament_create, tournament_join, tournaments_tick

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_standings_are_pushed_batched_and_a_seated_player_hears_of_their_table(alice, bob):
    made = await db(tournament_create)(
        by=alice,
        name="Live",
        kind="arena",
        starts_at=timezone.now(),
        duration=30,
        bots=3,
        bot_level="easy",
        turn_clock=15,
        end_score=10,
    )
    page = await connect(alice, f"/ws/tournaments/{made.pk}/?invite={made.invite_code}")
    first = await page.receive_from(timeout=5)
    assert 'id="tournament-live"' in first and "Medium" not in first
    for user in (alice, bob):  # two changes in a row: one push
        await db(tournament_join)(tournament_id=made.pk, user=user, invite_code=made.invite_code)
    pushed = await page.receive_from(timeout=5)
    assert "bob" in pushed and "alice" in pushed
    await asyncio.sleep(0.2)
    assert await page.receive_nothing(timeout=0.5)
    await db(tournaments_tick)(now=made.starts_at)
    frames = [await page.receive_from(timeout=5), await page.receive_from(timeout=5)]
    mine = next(f for f in frames if 'id="my-table"' in f)
    assert 'data-new="1"' in mine and "/games/" in mine
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
