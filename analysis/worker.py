"""Where the post-game analysis (and other heavy background work, e.g. puzzles.background)
computes: a process of its own (the standard library's process
pool: one process, started on first use, fresh for a forked child), at a lower priority
(``NICENESS``), so that it never holds the GIL the live games' sockets need.
``SKYJO_ANALYSIS_WORKER=false`` computes in the caller's thread instead.
"""

import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor

from analysis.core import analyse_record

NICENESS = 10
SERVER_CHECK = 1.0  # seconds between two looks of the worker at its server process

_pool: ProcessPoolExecutor | None = None
_pool_pid: int | None = None


def compute(record: dict, seats: list[int], stand_in=()) -> tuple[dict | None, float]:
    """The analysis of ``record`` for ``seats`` (``stand_in``: as ``analyse_record`` takes it)
    and the seconds it took (``None``: no seat to analyse). Runs in the worker; raises what
    analysis.core raises."""
    started = time.perf_counter()
    data = analyse_record(record, seats=seats, stand_in=stand_in) if seats else None
    return data, time.perf_counter() - started


def submit(record: dict, seats: list[int], stand_in=()) -> Future:
    """Hand ``record`` to the worker; the future holds :func:`compute`'s result."""
    return run(compute, record, seats, stand_in)


def run(function, *args, **kwargs) -> Future:
    """Hand ``function(*args, **kwargs)`` (a module-level function of pure computation, its
    arguments and result picklable) to the worker; the future holds its result."""
    return _worker().submit(function, *args, **kwargs)


def discard() -> None:
    """Drop a broken worker; the next :func:`submit` starts another."""
    global _pool
    if _pool is not None and _pool_pid == os.getpid():
        _pool.shutdown(wait=False, cancel_futures=True)
    _pool = None


def _worker() -> ProcessPoolExecutor:
    global _pool, _pool_pid
    if _pool is None or _pool_pid != os.getpid():
        # spawn, not fork: the server process has threads (database pool, bot runner).
        context = multiprocessing.get_context("spawn")
        _pool = ProcessPoolExecutor(
            1, mp_context=context, initializer=_in_worker, initargs=(os.getpid(),)
        )
        _pool_pid = os.getpid()
    return _pool


def _in_worker(server: int) -> None:
    """The worker's start: a lower priority, and Ctrl-C left to the server, which ends the
    worker as it stops (a terminal's Ctrl-C reaches every process of its group); and a watch
    on the server process ``server``, whose death nothing else would tell it."""
    os.nice(NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with, args=(server,), name="end-with-server", daemon=True).start()


def _end_with(server: int) -> None:
    """End this worker once ``server`` is gone. A server process killed outright (``kill -9``,
    the out-of-memory killer) cannot stop it, and the worker would wait for work for ever: it
    holds both ends of its own queue's pipe, so no end of file ever comes."""
    while os.getppid() == server:
        time.sleep(SERVER_CHECK)
    os._exit(0)
