"""Failed log-ins (429): django-axes locks a (username, address) pair after AXES_FAILURE_LIMIT
failures; the brake stops an address past SKYJO_LOGIN_BRAKE failures across usernames."""

from datetime import timedelta

from axes.handlers.proxy import AxesProxyHandler
from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.utils import timezone
from django.utils.timesince import timeuntil
from django_ratelimit.core import get_usage

from web.ratelimit import setting_rate

BRAKE_GROUP = "skyjo.login-brake"
MAX_USERNAME = 150  # accounts.User.username: a longer one can be nobody's


def axes_username(request, credentials=None) -> str | None:
    """``AXES_USERNAME_CALLABLE``: the username typed, cut to what a username can be."""
    data = credentials or getattr(request, "data", request.POST)
    username = data.get("username")
    if not isinstance(username, str):
        return None
    return lock_key(username)


def lock_key(username: str) -> str:
    """The name a lock is kept under: every case of a name is one player (log-in matches names
    in any case), so every case counts toward one lock."""
    return username[:MAX_USERNAME].replace("\0", "").casefold()


def tries_left(request, username: str) -> int:
    """Failed log-ins left for ``username`` from ``request``'s address before its lock."""
    failures = AxesProxyHandler.get_failures(request, {"username": username})
    return max(settings.AXES_FAILURE_LIMIT - failures, 0)


def lockout_response(request, original_response=None, credentials=None):
    """django-axes' answer to a locked (username, address) pair (``AXES_LOCKOUT_CALLABLE``)."""
    return _refusal(request, brake=False, wait=settings.AXES_COOLOFF_TIME)


def _brake_usage(request, *, increment: bool):
    rate = setting_rate("SKYJO_LOGIN_BRAKE")
    return get_usage(request, group=BRAKE_GROUP, key="ip", rate=rate, increment=increment)


def count_failure(sender, credentials=None, request=None, **kwargs) -> None:
    """``user_login_failed``: one more failure against the address's brake."""
    if request is not None:
        _brake_usage(request, increment=True)


def brake_engaged(request) -> timedelta | None:
    """How long ``request``'s address must wait before it may log in again, or ``None``."""
    usage = _brake_usage(request, increment=False)
    if usage is None or usage["count"] < usage["limit"]:
        return None
    return timedelta(seconds=max(usage["time_left"], 1))


def _refusal(request, *, brake: bool, wait: timedelta):
    now = timezone.now()
    context = {"brake": brake, "retry_in": timeuntil(now + wait, now)}  # "15 minutes"
    return render(request, "registration/locked_out.html", context, status=429)


class BrakeBackend:
    """Before the password check: while the brake is engaged no log-in form checks a password.
    No ``get_user``: it never becomes a session's backend."""

    def authenticate(self, request, **credentials):
        if request is not None and brake_engaged(request) is not None:
            raise PermissionDenied
        return None


class LoginView(auth_views.LoginView):
    """Django's log-in view, refused while the address's brake is engaged; a failed try says
    how many are left once few are (``WARN_WITHIN``)."""

    WARN_WITHIN = 2

    def post(self, request, *args, **kwargs):
        wait = brake_engaged(request)
        if wait is not None:
            return _refusal(request, brake=True, wait=wait)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        """Overridden to add ``tries_left`` to the page (the failure is counted by then)."""
        username = form.data.get("username")
        left = tries_left(self.request, username) if isinstance(username, str) else None
        if left is not None and left <= self.WARN_WITHIN:
            minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
            context = self.get_context_data(form=form, tries_left=left, lock_minutes=minutes)
            return self.render_to_response(context)
        return super().form_invalid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's; a completed reset lifts the account's log-in locks: whoever set the new
    password holds the account's e-mail, so they are its player."""

    def form_valid(self, form):
        """Overridden to reset django-axes' failures for the account's name, in any case."""
        response = super().form_valid(form)
        axes_reset(username=lock_key(form.user.get_username()))
        return response
