"""Whether a socket's session may still act (the game socket's heartbeat asks), and the log-out
hook that closes that session's sockets on every process (accounts.access)."""

from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.utils.crypto import constant_time_compare

from accounts.access import close_session_sockets


def session_alive(scope) -> bool:
    """The socket's user exists, is active and not banned, and its session (if any) exists, is
    theirs and holds their current password's hash."""
    from accounts.models import User

    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return False
    row = User.objects.filter(pk=user.pk).values("is_active", "is_banned", "password").first()
    if row is None or not row["is_active"] or row["is_banned"]:
        return False
    session = scope.get("session")
    if session is None:
        return True
    key = session.session_key
    if not key:
        return False
    data = import_module(settings.SESSION_ENGINE).SessionStore(key).load()  # {}: none or expired
    if str(data.get(SESSION_KEY)) != str(user.pk):
        return False
    current = User(pk=user.pk, password=row["password"]).get_session_auth_hash()
    return constant_time_compare(data.get(HASH_SESSION_KEY, ""), current)


def on_logged_out(sender, request, user, **kwargs) -> None:
    """``user_logged_out``: runs before Django flushes the session, so name it now."""
    if user is not None and getattr(request, "session", None) is not None:
        close_session_sockets(user.pk, request.session.session_key)
