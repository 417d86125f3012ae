"""Where a searching bot thinks in a server: a process of its own, off the server's GIL.

:func:`choose` hands the view to one worker process (the standard library's process pool,
started on first use, fresh for a forked child) and waits for its step; the server process
stays free for its sockets meanwhile. Levels in :data:`SEARCHING` go there, the others decide
in the caller's thread (they take a millisecond). If the worker fails or does not answer in
``TIMEOUT`` seconds, the level's own model decides in the caller's thread instead, without
its search (a millisecond).
"""

import multiprocessing
import os
import random
import signal
import threading
import time
from concurrent.futures import BrokenExecutor, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from games.engine import Action, View

from . import get_bot

SEARCHING = frozenset({"expert"})
TIMEOUT = 5.0

_pool: ProcessPoolExecutor | None = None
_pool_pid: int | None = None


def choose(level: str, view: View, seed: int) -> Action:
    """The step of a ``level`` bot for ``view`` with a random source seeded by ``seed``."""
    if level not in SEARCHING:
        return get_bot(level).choose(view, random.Random(seed))
    try:
        return _worker().submit(_decide, level, view, seed).result(timeout=TIMEOUT)
    except (BrokenExecutor, FutureTimeout, OSError):
        discard()
        return get_bot(level).model.choose(view, random.Random(seed))


def _decide(level: str, view: View, seed: int) -> Action:
    return get_bot(level).choose(view, random.Random(seed))


def discard() -> None:
    """Drop the worker (broken or late); the next :func:`choose` starts another."""
    global _pool
    if _pool is not None and _pool_pid == os.getpid():
        _pool.shutdown(wait=False, cancel_futures=True)
    _pool = None


def _worker() -> ProcessPoolExecutor:
    global _pool, _pool_pid
    if _pool is None or _pool_pid != os.getpid():
        # spawn, not fork: a server process has threads.
        context = multiprocessing.get_context("spawn")
        _pool = ProcessPoolExecutor(
            1, mp_context=context, initializer=_in_worker, initargs=(os.getpid(),)
        )
        _pool_pid = os.getpid()
    return _pool


def _in_worker(server: int) -> None:
    """Ctrl-C is the server's to handle (it ends the worker as it stops); and a watch on the
    server process, whose death (``kill -9``) nothing else would tell the worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with, args=(server,), name="end-with-server", daemon=True).start()


def _end_with(server: int) -> None:
    while os.getppid() == server:
        time.sleep(1.0)
    os._exit(0)


__all__ = ["SEARCHING", "choose", "discard"]
