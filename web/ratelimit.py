"""HTTP rate limits (docs/configuration.md): django-ratelimit's counters with rates read from
settings per request, every other POST against ``SKYJO_RATELIMIT_WRITE``, one 429 answer."""

import logging

from django.conf import settings
from django.shortcuts import render
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django_ratelimit.core import _split_rate, get_usage, is_ratelimited
from django_ratelimit.decorators import ratelimit
from django_ratelimit.exceptions import Ratelimited

log = logging.getLogger("skyjo.ratelimit")

WRITE_GROUP = "skyjo.write"
EXEMPT_URL_NAMES = {"login"}  # django-axes throttles failed log-ins


def setting_rate(name: str):
    """A django-ratelimit ``rate`` callable reading ``settings.<name>`` per request."""
    return lambda group, request: getattr(settings, name)


def limit(setting: str, *, key: str, group: str, method: str = "POST"):
    """Limit a view to ``settings.<setting>`` requests per ``key``; a ``group`` is a counter."""
    return ratelimit(group=group, key=key, rate=setting_rate(setting), method=method)


def count(
    request, setting: str, *, key: str, group: str, method: str = "POST", increment: bool = True
) -> dict | None:
    """Count this request against ``settings.<setting>`` (``increment=False``: only look):
    django-ratelimit's usage, or ``None`` when limits are off or the method is not counted."""
    rate = setting_rate(setting)
    return get_usage(request, group=group, key=key, rate=rate, method=method, increment=increment)


def refusal(request, setting: str, text: str, *, increment: bool = True, **where) -> str | None:
    """``None`` under the limit (``count``'s ``where``: key, group, method), else the refusal,
    logged: ``text`` with ``%(count)s``, ``%(per)s`` ("an hour") and ``%(wait)s`` (time left)."""
    used = count(request, setting, increment=increment, **where)
    if not used:
        return None
    if not increment:  # looking: the request to come would be one more
        used["should_limit"] = used["count"] >= used["limit"]
    if not used["should_limit"]:
        return None
    log_limited(request)
    limit, seconds = _split_rate(getattr(settings, setting))
    return text % {"count": limit, "per": _per(seconds), "wait": wait_text(used["time_left"])}


def duration(seconds: int) -> str:
    """``seconds`` for people: "1 hour", "10 minutes", "2 days", "30 seconds"."""
    if seconds >= 86400 and seconds % 86400 == 0:
        n, words = seconds // 86400, ngettext("%(n)s day", "%(n)s days", seconds // 86400)
    elif seconds >= 3600 and seconds % 3600 == 0:
        n, words = seconds // 3600, ngettext("%(n)s hour", "%(n)s hours", seconds // 3600)
    elif seconds >= 60 and seconds % 60 == 0:
        n, words = seconds // 60, ngettext("%(n)s minute", "%(n)s minutes", seconds // 60)
    else:
        n, words = seconds, ngettext("%(n)s second", "%(n)s seconds", seconds)
    return words % {"n": n}


def _per(seconds: int) -> str:
    """ "an hour", "a day", "a minute", "a second", else "every 2 hours" ("at most 5 an hour")."""
    single = {
        86400: pgettext("rate", "a day"),
        3600: pgettext("rate", "an hour"),
        60: pgettext("rate", "a minute"),
        1: pgettext("rate", "a second"),
    }
    return single.get(seconds) or pgettext("rate", "every %(period)s") % {
        "period": duration(seconds)
    }


def wait_text(seconds: int) -> str:
    """How long until a limit's window ends, rounded up to whole minutes past a minute."""
    seconds = max(int(seconds), 1)
    if seconds > 60:
        seconds = -(-seconds // 60) * 60
        if seconds > 3600:
            seconds = -(-seconds // 3600) * 3600
    return duration(seconds)


def log_limited(request) -> None:
    user = getattr(request, "user", None)
    log.warning(
        "rate limited: %s %s by %s from %s",
        request.method,
        request.path,
        f"user {user.pk}" if user is not None and user.is_authenticated else "anonymous",
        request.META.get("REMOTE_ADDR", "?"),
    )


def ratelimited(request, exception=None):
    """The answer to a limited request: HTTP 429 with a message for people."""
    message = _("Too many requests: please wait a little and try again.")
    log_limited(request)
    if getattr(request, "htmx", False):
        return render(request, "games/partials/flash.html", {"message": message}, status=429)
    return render(request, "ratelimited.html", {"message": message}, status=429)


class WriteRateLimitMiddleware(MiddlewareMixin):
    """Count every POST (bar the log-in form) against ``SKYJO_RATELIMIT_WRITE``."""

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method != "POST":
            return None
        match = request.resolver_match
        if match is not None and match.url_name in EXEMPT_URL_NAMES:
            return None
        rate = setting_rate("SKYJO_RATELIMIT_WRITE")
        if is_ratelimited(
            request, WRITE_GROUP, key="user_or_ip", rate=rate, method="POST", increment=True
        ):
            return ratelimited(request, Ratelimited())
        return None
