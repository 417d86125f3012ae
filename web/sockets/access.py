"""A user's open websockets end when their access ends: a ban, a log-out, a password change,
the account deleted (moderation.signals).

Every socket (game, lobby, lobby list) joins its user's group (``user_group``) on every server
process. ``close_user_sockets`` asks all of them to close (a ban, a password change: every
session of the user ends); ``close_session_sockets`` only those opened with one session (a
log-out ends that session alone). Both send after the commit. A lost message is caught all the
same: ``session_alive`` is checked before any frame changes a game or asks for its state, and
every ``SKYJO_HEARTBEAT`` seconds by each game socket's heartbeat.
"""

import functools
import logging
from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import connection
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from accounts.access import close_session_sockets

log = logging.getLogger(__name__)


def session_alive(scope) -> bool:
    """Whether the user and session a socket was opened with may still act: the user still
    exists, is active and not banned, and the session still exists, belongs to them and holds
    their current password's hash. A scope without a session (tests that build the scope by
    hand) is judged by the user alone.

    Called before every frame that may change a game, so it is one plain statement with the
    database session engine (the default): through the ORM, building the query cost more CPU
    than the move it guards (docs/performance.md). Two reads with another engine."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return False
    session = scope.get("session")
    key = None if session is None else session.session_key
    if session is not None and not key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore
    in_database = key is not None and issubclass(store, DatabaseSessionStore)
    row = _user_and_session(user.pk, key if in_database else None, store)
    if row is None:
        return False
    is_active, is_banned, password, session_data = row
    if not is_active or is_banned:
        return False
    if session is None:
        return True
    if in_database:
        return bool(session_data) and _stored_session_is(store, session_data, user.pk, password)
    return _session_is(store(key).load(), user.pk, password)


@functools.lru_cache(maxsize=4096)
def _stored_session_is(store, session_data: str, user_id: int, password: str) -> bool:
    """Whether the stored ``session_data`` is a login of ``user_id`` with ``password``. The
    same row gives the same answer, and decoding it and hashing the password cost more CPU
    than reading it (40 % of this check on every move, py-spy): remembered per row. A log-out,
    a password change or a new login changes the row, and so the key."""
    return _session_is(store().decode(session_data), user_id, password)


def _session_is(data: dict, user_id: int, password: str) -> bool:
    from accounts.models import User

    if str(data.get(SESSION_KEY)) != str(user_id):
        return False
    current = User(pk=user_id, password=password).get_session_auth_hash()
    return constant_time_compare(data.get(HASH_SESSION_KEY, ""), current)


def _user_and_session(user_id: int, key: str | None, store) -> tuple | None:
    """``(is_active, is_banned, password, session_data)`` of the user, with the data of the
    unexpired database session ``key`` (``None`` if there is none, or no ``key``)."""
    from accounts.models import User

    quote = connection.ops.quote_name
    users = quote(User._meta.db_table)
    sessions = quote(store.get_model_class()._meta.db_table)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT u.is_active, u.is_banned, u.password, s.session_data FROM {users} u "
            f"LEFT JOIN {sessions} s ON s.session_key = %s AND s.expire_date > %s "
            "WHERE u.id = %s",
            [key or "", now, user_id],
        )
        return cursor.fetchone()


def on_logged_out(sender, request, user, **kwargs) -> None:
    """``user_logged_out``: runs before Django flushes the session, so name it now."""
    if user is not None and getattr(request, "session", None) is not None:
        close_session_sockets(user.pk, request.session.session_key)
