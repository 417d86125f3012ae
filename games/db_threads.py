"""The sockets' database work, on a small pool of threads of its own.

Channels' ``database_sync_to_async`` runs every database call of a process on one thread, so
the moves of all the games a process serves wait for the database one after another: that one
thread, waiting for answers, was the ceiling of a process (docs/performance.md). Here each of
``SKYJO_DB_THREADS`` threads (default 4) has its own database connection, and calls of
different games wait side by side. Nothing else changes: each call closes stale connections
before and after it (``DatabaseSyncToAsync``), each service still locks what it changes, so two
moves of one game are still applied one after the other, and a socket still handles one frame
at a time. ``SKYJO_DB_THREADS=1`` gives one thread, as channels does.

A process then holds up to that many database connections (docs/deployment.md).
"""

import os
from concurrent.futures import ThreadPoolExecutor

from channels.db import DatabaseSyncToAsync
from django.conf import settings

_pools: dict[tuple[int, int], ThreadPoolExecutor] = {}


def pool() -> ThreadPoolExecutor:
    """This process's pool of the current ``SKYJO_DB_THREADS`` (one per size: tests change
    it). Per process id: a forked child has none of its parent's threads, and a copied
    executor would wait for them forever."""
    key = (os.getpid(), settings.SKYJO_DB_THREADS)
    if key not in _pools:
        _pools[key] = ThreadPoolExecutor(max_workers=key[1], thread_name_prefix="db")
    return _pools[key]


def in_db_thread(func):
    """``func`` (a sync function that uses the database) as a coroutine function run on the
    pool; use it as ``database_sync_to_async`` is used."""
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=pool())
