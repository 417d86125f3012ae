"""Shedding load: past SKYJO_MAX_PENDING_FRAMES frames waiting for the database, or while a
database call has waited SKYJO_SHED_AFTER seconds for a thread, a frame is answered ``busy`` at
once and changes nothing; once the database thread is free it is served."""

import asyncio
import threading

import pytest

from core import db as db_threads
from core.db import in_db_thread
from games.tests.helpers import start_game
from games.tests.ws import db, game_socket, receive_json, send
from web.sockets import shedding

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _until(condition) -> None:
    while not condition():
        await asyncio.sleep(0.01)


async def test_a_frame_past_the_bound_is_answered_busy_at_once(settings, alice, bob):
    settings.SKYJO_MAX_PENDING_FRAMES = 1
    settings.SKYJO_DB_THREADS = 1
    game = await db(start_game)(alice, bob)
    first, _ = await game_socket(alice, game.pk)
    second, _ = await game_socket(bob, game.pk, fmt="json")

    # Hold the sockets' one database thread, so that the first frame stays in flight.
    release = threading.Event()
    holder = asyncio.ensure_future(in_db_thread(release.wait)())
    try:
        await send(first, {"reveal": 0, "version": 0})
        await asyncio.wait_for(_until(lambda: shedding.in_flight() == 1), 10)

        await send(second, {"reveal": 3, "version": 0})
        refused = await receive_json(second)
        assert refused["error"]["code"] == "busy"
        assert refused["error"]["message"]
        assert not release.is_set(), "answered without waiting for the database"
    finally:
        release.set()
        await holder

    # The admitted frame is applied; the refused one changed nothing and can be sent again.
    applied = await receive_json(second)
    assert applied["version"] == 1, applied
    await asyncio.wait_for(_until(lambda: shedding.in_flight() == 0), 10)
    await send(second, {"reveal": 3, "version": 1})
    frame = await receive_json(second)
    assert frame["version"] == 2, frame
    assert frame["players"][1]["grid"][3] != "?"
    assert frame["players"][0]["grid"][0] != "?"
    await first.disconnect()
    await second.disconnect()


async def test_the_busy_message_is_in_the_sockets_language(settings, alice, bob):
    settings.SKYJO_MAX_PENDING_FRAMES = 1
    settings.SKYJO_DB_THREADS = 1
    alice.language = "de"
    await db(alice.save)(update_fields=["language"])
    game = await db(start_game)(alice, bob)
    german, _ = await game_socket(alice, game.pk)
    english, _ = await game_socket(bob, game.pk)
    release = threading.Event()
    holder = asyncio.ensure_future(in_db_thread(release.wait)())
    try:
        await send(english, {"sync": True})
        await asyncio.wait_for(_until(lambda: shedding.in_flight() == 1), 10)
        await send(german, {"sync": True})
        refused = await receive_json(german)
    finally:
        release.set()
        await holder
    assert refused["error"]["code"] == "busy"
    assert (
        refused["error"]["message"]
        != "The server is busy: nothing was done. Try again in a moment."
    )
    await german.disconnect()
    await english.disconnect()


async def test_a_frame_is_refused_while_the_database_work_is_behind(settings, alice, bob):
    """Well under the cap, but a call has waited longer than SKYJO_SHED_AFTER for the one
    database thread: the next frame is refused at once; once the queue is worked off, the same
    frame is served."""
    settings.SKYJO_SHED_AFTER = 0.2
    settings.SKYJO_DB_THREADS = 1
    game = await db(start_game)(alice, bob)
    first, _ = await game_socket(alice, game.pk, fmt="json")
    second, _ = await game_socket(bob, game.pk, fmt="json")
    release = threading.Event()
    holder = asyncio.ensure_future(in_db_thread(release.wait)())
    try:
        await send(first, {"reveal": 0, "version": 0})  # admitted: it queues behind the holder
        await asyncio.wait_for(_until(lambda: shedding.in_flight() == 1), 10)
        await asyncio.sleep(0.3)
        assert db_threads.oldest_wait() >= 0.2
        await send(second, {"reveal": 3, "version": 0})
        refused = await receive_json(second)
        assert refused["error"]["code"] == "busy"
        assert not release.is_set(), "answered without waiting for the database"
    finally:
        release.set()
        await holder
    assert (await receive_json(second))["version"] == 1
    await asyncio.wait_for(_until(lambda: shedding.in_flight() == 0), 10)
    assert db_threads.oldest_wait() == 0
    await send(second, {"reveal": 3, "version": 1})
    assert (await receive_json(second))["version"] == 2
    await first.disconnect()
    await second.disconnect()
