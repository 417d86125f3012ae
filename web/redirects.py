"""Where a form may send its user back to (``?next=``, a hidden ``next`` field, the Referer).

Only a page of this site is such a place: a path (``/games/3/``) or a URL of this host. Django's
``url_has_allowed_host_and_scheme`` also passes a bare word (``foo``, ``home``), which
``redirect()`` then takes for the name of a URL: a server error when no URL has that name, and
another page than the one meant when one has.
"""

from urllib.parse import urlsplit

from django.utils.http import url_has_allowed_host_and_scheme


def local_url(request, target: str | None) -> str | None:
    """``target`` if it is a page of this site, else ``None``."""
    target = target or ""
    parts = urlsplit(target)
    if not (parts.scheme or parts.netloc or target.startswith("/")):
        return None
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return None
    return target
