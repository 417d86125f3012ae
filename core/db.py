"""The sockets' database work, on a small pool of threads of its own.

Channels' ``database_sync_to_async`` runs every database call of a process on one thread, so
the moves of all the games a process serves wait for the database one after another: that one
thread, waiting for answers, was the ceiling of a process (docs/performance.md). Here each of
``SKYJO_DB_THREADS`` threads (default 4 on PostgreSQL, 1 on SQLite, which writes one
transaction at a time anyway) has its own database connection, and calls of different games
wait side by side. Nothing else changes: each call closes stale connections before and after
it (``DatabaseSyncToAsync``), each service still locks what it changes, so two moves of one
game are still applied one after the other, and a socket still handles one frame at a time.
``SKYJO_DB_THREADS=1`` gives one thread, as channels does.

The pool knows how long its oldest call has waited for a thread (:func:`oldest_wait`): how
far behind the database work of the process is, which web.sockets.shedding reads.

With kept connections (``DATABASE_CONN_MAX_AGE``) Django checks a connection (``SELECT 1``,
``CONN_HEALTH_CHECKS``) before its first query after every ``close_old_connections``, that is
before every call here: a round trip more per move, 7 % of a process's CPU per move
(docs/performance.md, fifth sitting). Here a connection is checked only when it has not
answered for ``HEALTH_CHECK_AFTER`` seconds; one in use answered a moment ago. A connection that
failed is checked (or replaced) by Django as before.

A process then holds up to that many database connections (docs/deployment.md).
"""

import itertools
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.db import close_old_connections, connections

HEALTH_CHECK_AFTER = 1.0  # seconds


class Pool(ThreadPoolExecutor):
    """A thread pool that notes when each call was queued until a thread takes it (or it is
    cancelled before that)."""

    def __init__(self, max_workers: int, thread_name_prefix: str = "") -> None:
        super().__init__(max_workers=max_workers, thread_name_prefix=thread_name_prefix)
        self._queued: dict[int, float] = {}  # ticket -> when queued, oldest first
        self._tickets = itertools.count()
        self._queued_lock = threading.Lock()

    def submit(self, fn, /, *args, **kwargs):
        ticket = next(self._tickets)
        with self._queued_lock:
            self._queued[ticket] = time.monotonic()
        try:
            future = super().submit(self._run, ticket, fn, *args, **kwargs)
        except BaseException:  # shut down: nothing was queued
            self._taken(ticket)
            raise
        future.add_done_callback(lambda _: self._taken(ticket))  # also when cancelled
        return future

    def _run(self, ticket: int, fn, /, *args, **kwargs):
        self._taken(ticket)
        return fn(*args, **kwargs)

    def _taken(self, ticket: int) -> None:
        with self._queued_lock:
            self._queued.pop(ticket, None)

    def oldest_wait(self) -> float:
        """Seconds the oldest call still waiting for a thread has waited (0: none waits)."""
        with self._queued_lock:
            for queued in self._queued.values():
                return time.monotonic() - queued
        return 0.0


_pools: dict[tuple[int, int], Pool] = {}


def pool() -> Pool:
    """This process's pool of the current ``SKYJO_DB_THREADS`` (one per size: tests change
    it). Per process id: a forked child has none of its parent's threads, and a copied
    executor would wait for them forever."""
    key = (os.getpid(), settings.SKYJO_DB_THREADS)
    if key not in _pools:
        _pools[key] = Pool(max_workers=key[1], thread_name_prefix="db")
    return _pools[key]


def oldest_wait() -> float:
    """How long the oldest database call of this process's sockets has waited for a thread."""
    return pool().oldest_wait()


class DatabaseCall(DatabaseSyncToAsync):
    """channels' ``database_sync_to_async``, with a kept connection's health check skipped
    while it answered less than HEALTH_CHECK_AFTER seconds ago."""

    def thread_handler(self, loop, *args, **kwargs):
        close_old_connections()
        _trust_recent_connections()
        try:
            return SyncToAsync.thread_handler(self, loop, *args, **kwargs)
        finally:
            close_old_connections()
            _note_answers()


def _trust_recent_connections() -> None:
    now = time.monotonic()
    for connection in connections.all(initialized_only=True):
        answered = getattr(connection, "skyjo_answered_at", None)
        if connection.connection is not None and answered and now - answered < HEALTH_CHECK_AFTER:
            connection.health_check_done = True


def _note_answers() -> None:
    """After a call: every connection still open worked (a failed one was checked and closed
    by close_old_connections, or is checked on its next use)."""
    now = time.monotonic()
    for connection in connections.all(initialized_only=True):
        if connection.connection is not None and not connection.errors_occurred:
            connection.skyjo_answered_at = now


def in_db_thread(func):
    """``func`` (a sync function that uses the database) as a coroutine function run on the
    pool; use it as ``database_sync_to_async`` is used."""
    return DatabaseCall(func, thread_sensitive=False, executor=pool())
