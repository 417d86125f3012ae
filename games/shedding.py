"""Shedding load: a bound on the game-socket frames that wait for the database in this process.

The sockets' database calls of a process run on a few threads (games.db_threads), so a frame
admitted past what they can serve only waits in their queue until the client gives up.
Past ``SKYJO_MAX_PENDING_FRAMES`` frames in flight, a frame is answered at once with the
``busy`` error instead, changing nothing; the client sends it again after a pause that grows
(docs/protocol.md). Counted per process, on its event loop (so a plain integer is enough).
"""

from django.conf import settings

_in_flight = 0


def enter() -> bool:
    """Admit one more frame (True), or refuse it because the bound is reached (False)."""
    global _in_flight
    if _in_flight >= settings.SKYJO_MAX_PENDING_FRAMES:
        return False
    _in_flight += 1
    return True


def leave() -> None:
    """An admitted frame is done (answered, refused or failed)."""
    global _in_flight
    _in_flight -= 1


def in_flight() -> int:
    return _in_flight
