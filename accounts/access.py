"""A user's open websockets close, after the commit, when their access ends (a ban, a log-out,
a password change, a deletion): every socket joins its user's group (``user_group``)."""

import hashlib
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

CLOSE_MESSAGE = "sockets.close"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def session_tag(session_key: str | None) -> str | None:
    """A stand-in for a session key in group messages (the key itself is a secret)."""
    if not session_key:
        return None
    return hashlib.sha256(session_key.encode()).hexdigest()[:32]


def close_user_sockets(user_id: int) -> None:
    """Close every open socket of this user, on every process, once the transaction commits."""
    _after_commit(user_id, {"type": CLOSE_MESSAGE})


def close_session_sockets(user_id: int, session_key: str | None) -> None:
    """Close this user's sockets that were opened with ``session_key``."""
    tag = session_tag(session_key)
    if tag is not None:
        _after_commit(user_id, {"type": CLOSE_MESSAGE, "session": tag})


def _after_commit(user_id: int, message: dict) -> None:
    transaction.on_commit(lambda: _send(user_group(user_id), message))


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # the next move of such a socket is refused anyway (session_alive)
        log.warning("could not tell %s to close its sockets", group, exc_info=True)
