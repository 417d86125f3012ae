"""A profile's figures, computed once per change of the player's games and kept in Django's
cache: the figures (stats.queries.player_profile) with their rendered panels; the rows of
its history that can no longer change (:func:`history_rows`); and HTML named by every value
it shows (:func:`fragment`, the players page's table).

Why a cache and not summary rows kept per player: what a profile shows depends on who looks
(a private game counts only for viewers who played in it, and for moderators), so one row per
player cannot hold it; rows per player and kind of game would still leave the figures that do
not add up (the trend over the last 20 games, favourite opponents over the last 1,000, best
and worst with their games) and every per-viewer case to live queries, and would give each
figure a second definition to keep equal to the first. Here each figure keeps its one
definition (SQL over the result rows, checked against hand-computed values), and a profile seen
again costs one cache read instead of six queries and the rendering of their panels.

The key changes when the figures may: it holds the player's ``ProfileVersion`` token, which
stats.recording replaces in the transaction that writes a finished (or voided) game's rows or
a rated game's ratings. A reader sees either the old rows and the old token or the new rows and
the new token; a reader that read the old token just before the commit may store newer figures
under it, which no one reads once the commit is seen. Nothing is deleted and nothing is done
after the commit, so no process can die between a change and its invalidation. Old entries
expire (``TIMEOUT``).

The key also holds the kind of viewer (every game: the player and moderators; public games:
visitors and players who share no private game with them; a player who does gets entries of
their own), the language (the panels are rendered), the rating shown (from the user row), and
a fingerprint of what renders the panels (this app's code, its templates, the name filters and
the translations): a new release never reads the panels of the one before.

The cache is the site's default cache: Redis when ``REDIS_URL`` is set, shared by every Daphne
process; otherwise each process's memory, still correct with several processes because the key
comes from the database. A player without a token (rows written directly, as tests do) is
never cached; a cache that fails to answer is skipped, the page is computed as without it.
"""

import functools
import hashlib
import logging
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Exists, OuterRef, Subquery
from django.shortcuts import get_object_or_404
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from core.access import sees_private_games
from stats import queries
from stats.models import GameResult, ProfileVersion
from stats.queries import Profile

logger = logging.getLogger(__name__)

TIMEOUT = 24 * 3600
ALL, PUBLIC = "all", "public"


def profile_owner(username: str, viewer):
    """The active user ``username`` (else 404) with ``stats_token`` (their ProfileVersion
    token, or None) and, for a logged-in viewer other than a moderator or themself,
    ``shares_private`` (they played a private finished game together): one query."""
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
    """Which of a player's games ``viewer`` may see, as a part of the key (as
    stats.queries.visible decides it): every game, the public ones, or their own set."""
    if not viewer.is_authenticated:
        return PUBLIC
    if viewer.pk == player.pk or sees_private_games(viewer):
        return ALL
    return f"viewer-{viewer.pk}" if getattr(player, "shares_private", True) else PUBLIC


@dataclass
class Cached:
    """What is kept: the figures and their panels, rendered."""

    profile: Profile
    html: str


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
    shown = (player.rating, player.rating_is_provisional, player.rated_games, player.username)
    parts = f"{fingerprint()}:{token}:{viewer_kind(player, viewer)}:{get_language()}:{shown}"
    return f"stats:profile:{player.pk}:{hashlib.sha256(parts.encode()).hexdigest()[:32]}"


def figures(player, viewer, compute, render) -> tuple[Profile, SafeString]:
    """The figures of ``player`` as ``viewer`` sees them and their panels: from the cache, or
    ``compute()`` (the figures) then ``render(figures)`` (the panels' HTML), kept for next time."""
    name = key(player, viewer)
    if name is not None:
        try:
            found = cache.get(name)
        except Exception:  # a cache that is down is skipped: the page is computed without it
            logger.warning("stats cache: read failed", exc_info=True)
            found = name = None
        if isinstance(found, Cached):
            return found.profile, mark_safe(found.html)
    profile = compute()
    html = render(profile)
    if name is not None:
        try:
            cache.set(name, Cached(profile, str(html)), TIMEOUT)
        except Exception:
            logger.warning("stats cache: write failed", exc_info=True)
    return profile, mark_safe(html)


DONE = ("finished", "aborted")


def history_rows(entries: list, render) -> list[SafeString]:
    """The rows of a page of history, in order. The row of a finished or stopped game never
    changes (its totals, result, table and players are final): it is read from the cache, kept
    per entry, state and language (and the game's seed and start, which no other database's
    game shares). The other rows, and rows not found, are rendered (``render``: a template's
    render, given ``{"entry": entry}``), their players read in one query for them all
    (stats.queries.add_players)."""
    names = {
        entry.pk: "stats:row:"
        + hashlib.sha256(
            f"{fingerprint()}:{entry.pk}:{entry.game.status}:{entry.game.seed}:"
            f"{entry.game.created_at.isoformat()}:{get_language()}".encode()
        ).hexdigest()[:32]
        for entry in entries
        if entry.game.status in DONE
    }
    try:
        found = cache.get_many(list(names.values())) if names else {}
    except Exception:
        logger.warning("stats cache: read failed", exc_info=True)
        found, names = {}, {}
    missing = [entry for entry in entries if names.get(entry.pk) not in found]
    if missing:
        queries.add_players(missing)
    made = {entry.pk: str(render({"entry": entry})) for entry in missing}
    kept = {names[pk]: html for pk, html in made.items() if pk in names}
    if kept:
        try:
            cache.set_many(kept, TIMEOUT)
        except Exception:
            logger.warning("stats cache: write failed", exc_info=True)
    return [
        mark_safe(made[entry.pk] if entry.pk in made else found[names[entry.pk]])
        for entry in entries
    ]


def fragment(kind: str, values: object, render) -> SafeString:
    """HTML that ``values`` (with the language and the fingerprint) determine entirely:
    ``render()``-ed once, then read from the cache under a digest of them. Nothing to
    invalidate: other values are another entry."""
    digest = hashlib.sha256(f"{fingerprint()}:{get_language()}:{values!r}".encode())
    name = f"stats:{kind}:{digest.hexdigest()[:32]}"
    try:
        found = cache.get(name)
    except Exception:
        logger.warning("stats cache: read failed", exc_info=True)
        found = name = None
    if isinstance(found, str):
        return mark_safe(found)
    html = str(render())
    if name is not None:
        try:
            cache.set(name, html, TIMEOUT)
        except Exception:
            logger.warning("stats cache: write failed", exc_info=True)
    return mark_safe(html)
