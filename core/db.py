"""The sockets' database calls, on this process's pool of ``SKYJO_DB_THREADS`` threads through
``sync_to_async``, stale connections closed around each (as ``database_sync_to_async``)."""

import asyncio
import functools
import itertools
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

_pools: dict[tuple[int, int], ThreadPoolExecutor] = {}
_queued: dict[int, float] = {}  # ticket -> when queued, oldest first
_tickets = itertools.count()
_lock = threading.Lock()
_local = threading.local()


def pool() -> ThreadPoolExecutor:
    """This process's pool of the current ``SKYJO_DB_THREADS`` (a forked child makes its own)."""
    key = (os.getpid(), settings.SKYJO_DB_THREADS)
    with _lock:
        if key not in _pools:
            _pools[key] = ThreadPoolExecutor(max_workers=key[1], thread_name_prefix="db")
        return _pools[key]


def oldest_wait() -> float:
    """Seconds the oldest call still waiting for a thread has waited (0: none waits)."""
    with _lock:
        for queued in _queued.values():
            return time.monotonic() - queued
    return 0.0


def serving_loop() -> asyncio.AbstractEventLoop | None:
    """In a call of :func:`in_db_thread`: the event loop that awaits it; elsewhere ``None``."""
    return getattr(_local, "loop", None)


def _taken(ticket: int) -> None:
    with _lock:
        _queued.pop(ticket, None)


def in_db_thread(func):
    """``func`` (sync, uses the database) as a coroutine function run on :func:`pool`."""

    @functools.wraps(func)
    async def call(*args, **kwargs):
        ticket = next(_tickets)
        loop = asyncio.get_running_loop()

        def run():
            _taken(ticket)
            _local.loop = loop
            close_old_connections()
            try:
                return func(*args, **kwargs)
            finally:
                close_old_connections()
                _local.loop = None

        with _lock:
            _queued[ticket] = time.monotonic()
        try:
            return await sync_to_async(run, thread_sensitive=False, executor=pool())()
        finally:
            _taken(ticket)

    return call
