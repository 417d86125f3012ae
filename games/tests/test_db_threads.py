"""The sockets' database executor (core.db): calls run on its own threads, with stale
connections closed around each, and it knows how long its oldest queued call has waited."""

import asyncio
import threading

import pytest

from accounts.models import User
from core import db as db_threads

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_calls_run_on_the_pool_and_wait_side_by_side(settings):
    settings.SKYJO_DB_THREADS = 2
    release = threading.Event()
    names = []

    def held():
        names.append(threading.current_thread().name)
        return release.wait(10)

    first = asyncio.ensure_future(db_threads.in_db_thread(held)())
    count = await db_threads.in_db_thread(lambda: User.objects.count())()  # the other thread
    assert count == 0
    release.set()
    assert await first is True
    assert names and names[0].startswith("db")


async def _hold_the_one_thread() -> tuple[threading.Event, asyncio.Future]:
    """Occupy the pool's one thread until the event is set (at most 10 s, so that a failed
    test never leaves the thread blocked for the tests after it)."""
    started, release = threading.Event(), threading.Event()

    def held():
        started.set()
        return release.wait(10)

    busy = asyncio.ensure_future(db_threads.in_db_thread(held)())
    while not started.is_set():
        await asyncio.sleep(0.01)
    return release, busy


async def test_the_oldest_wait_is_measured_until_a_thread_takes_the_call(settings):
    settings.SKYJO_DB_THREADS = 1
    release, busy = await _hold_the_one_thread()
    try:
        waiting = asyncio.ensure_future(db_threads.in_db_thread(lambda: "ran")())
        while db_threads.oldest_wait() == 0:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.1)
        assert db_threads.oldest_wait() >= 0.1
    finally:
        release.set()
    assert await busy is True and await waiting == "ran"
    assert db_threads.oldest_wait() == 0


async def test_a_cancelled_call_is_forgotten(settings):
    settings.SKYJO_DB_THREADS = 1
    release, busy = await _hold_the_one_thread()
    try:
        waiting = asyncio.ensure_future(db_threads.in_db_thread(lambda: "never")())
        while db_threads.oldest_wait() == 0:
            await asyncio.sleep(0.01)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert db_threads.oldest_wait() == 0
    finally:
        release.set()
    assert await busy is True


async def test_stale_connections_are_closed_before_and_after_each_call(monkeypatch):
    seen = []
    monkeypatch.setattr(db_threads, "close_old_connections", lambda: seen.append("close"))
    await db_threads.in_db_thread(lambda: seen.append("call"))()
    assert seen == ["close", "call", "close"]


async def test_a_call_knows_the_loop_it_serves():
    loop = asyncio.get_running_loop()
    assert await db_threads.in_db_thread(db_threads.serving_loop)() is loop
    assert db_threads.serving_loop() is None
