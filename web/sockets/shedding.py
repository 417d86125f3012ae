"""Shedding load: a game-socket frame is refused (``busy``) while a database call has waited
SKYJO_SHED_AFTER seconds for a thread or SKYJO_MAX_PENDING_FRAMES frames are in flight."""

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
