"""Where a form may send its user back to (``next``, the Referer): a path or a URL of this
host, never a bare word, which ``redirect()`` would take for a URL name."""

from urllib.parse import urlsplit

from django.utils.http import url_has_allowed_host_and_scheme


def local_url(request, target: str | None) -> str | None:
    """``target`` if it is a page of this site, else ``None``."""
    target = target or ""
    parts = urlsplit(target)
    if not (parts.scheme or parts.netloc or target.startswith("/")):
        return None
    hosts, https = {request.get_host()}, request.is_secure()
    ok = url_has_allowed_host_and_scheme(target, allowed_hosts=hosts, require_https=https)
    return target if ok else None


def next_url(request, default: str = "") -> str:
    """The ``next`` the request names (POST, then GET) if it is a page of this site, else
    ``default``."""
    return local_url(request, request.POST.get("next") or request.GET.get("next")) or default
