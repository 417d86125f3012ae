"""What an outbox row's e-mail says, in the active language and time zone: its subject, its
plain-text body (templates/notifications/email/) and its List-Unsubscribe headers (RFC 2369,
RFC 8058)."""

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import format_lazy
from django.utils.translation import gettext as _

from core.when import when
from games.selectors import games_awaiting
from notifications import tokens
from notifications.models import Outbox


def site_url(path: str) -> str:
    """``path`` on the site (SKYJO_SITE_URL): e-mails have no request to build URLs from."""
    return settings.SKYJO_SITE_URL.rstrip("/") + path


def unsubscribe_url(*, user_id: int, kind: str, generation: int) -> str:
    token = tokens.make(user_id=user_id, kind=kind, generation=generation)
    return site_url(reverse("notifications:unsubscribe", args=[token]))


def game_mail(row: Outbox, game, *, generation: int) -> tuple[str, str, dict]:
    """``(subject, body, headers)`` of a turn or reminder e-mail about ``game``."""
    name = game.lobby.name
    if row.kind == Outbox.Kind.REMINDER:
        subject = format_lazy(_("Time is running out in {name}"), name=name)
    else:
        subject = format_lazy(_("Your turn in {name}"), name=name)
    unsubscribe = unsubscribe_url(user_id=row.user_id, kind=row.kind, generation=generation)
    context = {
        "name": row.user.get_username(),
        "lobby": name,
        "game_url": site_url(reverse("games:game", args=[game.pk])),
        "deadline": when(row.deadline) if row.deadline else "",
        "forfeit": game.lobby.on_timeout == "forfeit",
        "unsubscribe_url": unsubscribe,
        "settings_url": site_url(reverse("notifications:settings")),
    }
    body = render_to_string(f"notifications/email/{row.kind}.txt", context)
    return str(subject), body, _headers(unsubscribe)


def digest_mail(row: Outbox, *, generation: int) -> tuple[str, str, dict] | None:
    """``(subject, body, headers)`` of the daily digest, or ``None`` if no game waits now."""
    games = list(games_awaiting(row.user))
    if not games:
        return None
    subject = format_lazy(_("Skyjo Online: games waiting for you ({count})"), count=len(games))
    unsubscribe = unsubscribe_url(user_id=row.user_id, kind=row.kind, generation=generation)
    context = {
        "name": row.user.get_username(),
        "games": [
            {"lobby": g.lobby.name, "url": site_url(reverse("games:game", args=[g.pk]))}
            for g in games
        ],
        "unsubscribe_url": unsubscribe,
        "settings_url": site_url(reverse("notifications:settings")),
    }
    body = render_to_string("notifications/email/digest.txt", context)
    return str(subject), body, _headers(unsubscribe)


def _headers(unsubscribe: str) -> dict:
    return {
        "List-Unsubscribe": f"<{unsubscribe}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
