"""The sockets' database threads: how long the oldest queued call has waited, and when a kept
connection is checked."""

import asyncio
import threading
import time

import pytest

from accounts.models import User
from core import db as db_threads


def test_the_pool_forgets_calls_taken_or_cancelled():
    pool = db_threads.Pool(max_workers=1)
    release = threading.Event()
    try:
        busy = pool.submit(release.wait)
        waiting = pool.submit(lambda: "ran")
        cancelled = pool.submit(lambda: "never")
        time.sleep(0.05)
        assert pool.oldest_wait() >= 0.05
        assert cancelled.cancel()
        release.set()
        assert busy.result(timeout=10) is True
        assert waiting.result(timeout=10) == "ran"
        assert pool.oldest_wait() == 0
    finally:
        release.set()
        pool.shutdown(wait=True)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_kept_connection_is_checked_only_when_it_was_idle(monkeypatch, settings):
    """With kept connections and health checks on, Django checks a connection before its first
    query of every call; on the sockets' threads only one that has been idle for
    HEALTH_CHECK_AFTER seconds is checked."""
    from django.db import connections

    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 60)
    monkeypatch.setitem(connections.settings["default"], "CONN_HEALTH_CHECKS", True)
    settings.SKYJO_DB_THREADS = 1
    checks = []
    wrapper = type(connections["default"])
    usable = wrapper.is_usable

    def counted(self):
        checks.append(self)
        return usable(self)

    monkeypatch.setattr(wrapper, "is_usable", counted)
    read = db_threads.in_db_thread(lambda: User.objects.count())
    close = db_threads.in_db_thread(connections.close_all)
    await close()  # the thread may keep a connection of an earlier test, opened unchecked
    try:
        await read()  # opens the thread's connection, with the settings above
        await read()
        await read()
        assert checks == []
        # Long enough that the next call begins within it on a loaded machine (0.05 s failed
        # at load 14).
        monkeypatch.setattr(db_threads, "HEALTH_CHECK_AFTER", 1.0)
        await asyncio.sleep(1.2)
        await read()
        assert len(checks) == 1
        await read()
        assert len(checks) == 1
    finally:
        await close()
