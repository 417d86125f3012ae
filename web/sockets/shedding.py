"""Shedding load: game-socket frames are refused while the database work of the process is
too far behind.

The sockets' database calls of a process run on a few threads (core.db), so a frame
admitted past what they can serve only waits in their queue until the client gives up. A frame
is answered at once with the ``busy`` error instead, changing nothing, when a database call of
the process has waited ``SKYJO_SHED_AFTER`` seconds for a thread (the queue is that long, on
whatever machine: the bound follows its speed), or when ``SKYJO_MAX_PENDING_FRAMES`` frames are
already in flight (a cap, for a burst that arrives at once). The client sends it again after a
pause that grows (docs/protocol.md). Frames are counted per process, on its event loop (so a
plain integer is enough).
"""

from django.conf import settings

from core import db as db_threads

_in_flight = 0


def enter() -> bool:
    """Admit one more frame (True), or refuse it because the process is behind (False)."""
    global _in_flight
    if _in_flight >= settings.SKYJO_MAX_PENDING_FRAMES:
        return False
    if _in_flight and db_threads.oldest_wait() >= settings.SKYJO_SHED_AFTER:
        return False
    _in_flight += 1
    return True


def leave() -> None:
    """An admitted frame is done (answered, refused or failed)."""
    global _in_flight
    _in_flight -= 1


def in_flight() -> int:
    return _in_flight
