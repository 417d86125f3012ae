"""A socket that closes while the server shuts down: its thread pools no longer take work
("cannot schedule new futures after shutdown"). The disconnect logs one line, no traceback."""

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import SyncToAsync

from games import db_threads
from games.tests.helpers import start_game
from games.tests.ws import db, game_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def shut_down_pools(monkeypatch):
    """Call it to shut every thread pool a consumer uses down, as at server shutdown."""
    loop = asyncio.get_running_loop
    saved = {}

    def shut_down():
        dead = ThreadPoolExecutor(max_workers=1)
        dead.shutdown()
        running = loop()
        saved["loop"], saved["executor"] = running, running._default_executor
        running.set_default_executor(dead)
        monkeypatch.setattr(SyncToAsync, "single_thread_executor", dead)
        monkeypatch.setattr(db_threads, "pool", lambda: dead)

    yield shut_down
    if saved:
        saved["loop"]._default_executor = saved["executor"]


async def test_a_disconnect_during_shutdown_logs_a_line_and_no_traceback(
    alice, bob, caplog, shut_down_pools
):
    game = await db(start_game)(alice, bob)
    comm, first = await game_socket(alice, game.pk)
    assert first["version"] == 0

    shut_down_pools()
    # After our disconnect handler, channels closes old database connections through the same
    # stopped pool and raises: that is channels' own call, not the consumer's.
    with caplog.at_level(logging.WARNING, logger="games"), contextlib.suppress(RuntimeError):
        await comm.disconnect()

    messages = [r.getMessage() for r in caplog.records if r.name.startswith("games")]
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []
    assert messages == [
        "socket claim not released: the server is shutting down",
        f"game socket {game.pk}: presence not recorded: the server is shutting down",
    ]
