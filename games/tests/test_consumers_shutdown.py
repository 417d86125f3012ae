"""A socket that closes while the server shuts down: its thread pools no longer take work
("cannot schedule new futures after shutdown"). The disconnect logs one line, no traceback."""

import asyncio
import contextlib
import logging
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from core import db as db_threads
from games import publish
from games.tests.helpers import start_game
from games.tests.ws import db, game_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def shut_down_pools(monkeypatch):
    """Call it to shut the thread pools a socket's handlers use down, as at server shutdown
    (channels' own thread, which closes old connections before each handler, is left)."""
    loop = asyncio.get_running_loop
    saved = {}

    def shut_down():
        dead = ThreadPoolExecutor(max_workers=1)
        dead.shutdown()
        running = loop()
        saved["loop"], saved["executor"] = running, running._default_executor
        running.set_default_executor(dead)
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
    with caplog.at_level(logging.WARNING, logger="web"), contextlib.suppress(RuntimeError):
        await comm.disconnect()

    messages = [r.getMessage() for r in caplog.records if r.name.startswith("web")]
    assert [r.getMessage() for r in caplog.records if r.exc_info] == []
    assert messages == [
        f"game socket {game.pk}: claim not released: the server is shutting down",
        f"game socket {game.pk}: presence not recorded: the server is shutting down",
    ]


async def test_a_publish_from_a_database_thread_of_a_stopped_server_does_not_hang():
    """The server's loop stopped while a socket's last database call (its presence write) was
    on a thread: the publish after that call's commit is dropped with a line in the log,
    instead of waiting for the stopped loop for ever."""
    stopped = asyncio.new_event_loop()  # not running, not closed: a server shutting down
    done = threading.Event()

    def database_call():
        db_threads._local.loop = stopped  # as in_db_thread sets it
        publish.presence_changed(1)
        done.set()

    threading.Thread(target=database_call, daemon=True).start()
    try:
        assert await asyncio.to_thread(done.wait, 10), "the publish waited for the stopped loop"
    finally:
        stopped.close()
