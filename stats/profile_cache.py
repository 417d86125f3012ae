"""A profile's figures and panels in Django's cache, keyed by the player's ``ProfileVersion``
token (replaced when their rows change), the kind of viewer, the language, the rating shown and
a fingerprint of the code. A failing cache is skipped."""

import functools
import hashlib
import logging
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Exists, OuterRef, Subquery
from django.shortcuts import get_object_or_404
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from core.access import sees_private_games
from stats.models import GameResult, ProfileVersion
from stats.queries import Profile

logger = logging.getLogger(__name__)

TIMEOUT = 24 * 3600
ALL, PUBLIC = "all", "public"


def profile_owner(username: str, viewer):
    """The active user ``username`` (else 404) with ``stats_token`` and, for a viewer who does
    not see all their games, ``shares_private`` (a private game together): one query."""
    users = get_user_model().objects.filter(is_active=True)
    users = users.annotate(
        stats_token=Subquery(ProfileVersion.objects.filter(user=OuterRef("pk")).values("token"))
    )
    if viewer.is_authenticated and not sees_private_games(viewer):
        theirs = GameResult.objects.filter(user_id=viewer.pk, is_public=False).values("game_id")
        users = users.annotate(
            shares_private=Exists(
                GameResult.objects.filter(user=OuterRef("pk"), is_public=False, game_id__in=theirs)
            )
        )
    return get_object_or_404(users, username=username)


def viewer_kind(player, viewer) -> str:
    """Which of a player's games ``viewer`` may see (as stats.queries.visible), for the key."""
    if not viewer.is_authenticated:
        return PUBLIC
    if viewer.pk == player.pk or sees_private_games(viewer):
        return ALL
    return f"viewer-{viewer.pk}" if getattr(player, "shares_private", True) else PUBLIC


@functools.cache
def fingerprint() -> str:
    """A digest of the files that make the panels (read once per process)."""
    root = Path(settings.BASE_DIR)
    files = [
        *Path(__file__).parent.glob("*.py"),
        *Path(__file__).parent.glob("templatetags/*.py"),
        *(root / "templates" / "stats").glob("*.html"),
        root / "accounts" / "names.py",
        root / "accounts" / "templatetags" / "names.py",
        root / "games" / "labels.py",
        *(root / "locale").glob("*/LC_MESSAGES/django.mo"),
    ]
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes() if path.exists() else b"")
    return digest.hexdigest()[:16]


def key(player, viewer) -> str | None:
    token = getattr(player, "stats_token", None)
    if token is None:
        return None
    shown = (
        player.rating,
        player.rating_is_provisional,
        player.rated_games,
        player.corr_rating,
        player.corr_rating_is_provisional,
        player.corr_rated_games,
        player.username,
    )
    parts = f"{fingerprint()}:{token}:{viewer_kind(player, viewer)}:{get_language()}:{shown}"
    return f"stats:profile:{player.pk}:{hashlib.sha256(parts.encode()).hexdigest()[:32]}"


def figures(player, viewer, compute, render) -> tuple[Profile, SafeString]:
    """The figures of ``player`` as ``viewer`` sees them and their panels: cached, or
    ``compute()`` then ``render(figures)``."""

    def make() -> tuple[Profile, str]:
        profile = compute()
        return profile, str(render(profile))

    profile, html = _cached(key(player, viewer), make)
    return profile, mark_safe(html)


def _cached(name: str | None, make):
    """The value kept under ``name``, or ``make()`` kept there (not without a name)."""
    found = _DOWN if name is None else _try("read", cache.get, name)
    if found is not None and found is not _DOWN:
        return found
    value = make()
    if found is not _DOWN:
        _try("write", cache.set, name, value, TIMEOUT)
    return value


_DOWN = object()  # no cache to use: none for this player, or it is down


def _try(what: str, method, *args):
    """``method(*args)``, or ``_DOWN`` if the cache fails: the page is computed without it."""
    try:
        return method(*args)
    except Exception:
        logger.warning("stats cache: %s failed", what, exc_info=True)
        return _DOWN
