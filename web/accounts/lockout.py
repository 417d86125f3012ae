"""Failed log-ins (429): django-axes locks a (username, address) pair after AXES_FAILURE_LIMIT
failures; the brake stops an address past SKYJO_LOGIN_BRAKE failures across usernames."""

from datetime import timedelta

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
    return username[:MAX_USERNAME].replace("\0", "")


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
    """Django's log-in view, refused while the address's brake is engaged."""

    def post(self, request, *args, **kwargs):
        wait = brake_engaged(request)
        if wait is not None:
            return _refusal(request, brake=True, wait=wait)
        return super().post(request, *args, **kwargs)
