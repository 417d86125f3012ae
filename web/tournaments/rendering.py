"""What the live page shows, for its first load and for every push (the same partials)."""

from urllib.parse import urlencode

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from core.access import sees_private_games
from core.caches import BoundedCache
from tournaments import selectors
from tournaments.models import Tournament

STANDINGS_SHOWN = 50  # the top of the standings; the rest are counted
TABLES_SHOWN = 12  # the tables in play to watch, those of the best placed first
CHAT_HEADING = _("Tournament chat")  # its room is a lobby: the chat panel would say so

_live = BoundedCache(64, "tournaments.live")  # live_html's key -> the live partial
NO_ACTIONS = '<div class="actions" id="entry-actions"></div>'


def url_of(tournament: Tournament, code: str | None = None) -> str:
    url = reverse("tournaments:detail", args=[tournament.pk])
    if not tournament.is_public:
        url += "?" + urlencode({"invite": code or tournament.invite_code})
    return url


def may_see(tournament: Tournament, user, code: str | None) -> bool:
    """Public ones; private ones by their link, their maker, their players, moderators."""
    if tournament.is_public or tournament.invited_by(code):
        return True
    if user is None or not user.is_authenticated:
        return False
    if tournament.created_by_id == user.pk or sees_private_games(user):
        return True
    return tournament.entries.filter(user=user).exists()


def live_context(tournament: Tournament) -> dict:
    rows = selectors.standings(tournament, limit=STANDINGS_SHOWN)
    first = [row.game_id for row in rows if row.game_id]
    tables, playing = selectors.tables_in_play(tournament, first=first, limit=TABLES_SHOWN)
    players = tournament.entries.count() if len(rows) == STANDINGS_SHOWN else len(rows)
    return {
        "tournament": tournament,
        "rows": rows,
        "more_players": players - len(rows),
        "tables": tables,
        "more_tables": playing - len(tables),
        "podium": selectors.podium(tournament),
        "now": timezone.now(),
    }


def live_html(tournament: Tournament) -> str:
    """The standings, the tables in play and the podium, the same for every viewer: rendered
    once per version and language in this process, for pages and sockets alike."""
    over = bool(tournament.ends_at and tournament.ends_at <= timezone.now())  # "Ends in" goes
    key = (tournament.pk, tournament.version, get_language(), over)
    html = _live.get(key)
    if html is None:
        html = render_to_string("tournaments/partials/live.html", live_context(tournament))
        _live.put(key, html)
    return html


def pushed_html(tournament: Tournament) -> str:
    """What the socket pushes: the live partial; once the tournament is over, also the page's
    ``#entry-actions`` emptied (nobody joins, pauses or withdraws any more)."""
    if tournament.status in (Tournament.Status.SCHEDULED, Tournament.Status.RUNNING):
        return live_html(tournament)
    return live_html(tournament) + NO_ACTIONS


def my_table_html(game_id: int | None, *, new: bool) -> str:
    return render_to_string(
        "tournaments/partials/my_table.html", {"my_game": game_id, "new_table": new}
    )


def page_context(tournament: Tournament, user, code: str | None) -> dict:
    entry = selectors.entry_of(tournament, user)
    invite = code or (
        tournament.invite_code
        if entry or tournament.created_by_id == getattr(user, "pk", None)
        else None
    )
    return {
        "tournament": tournament,
        "live_html": live_html(tournament),
        "entry": entry,
        "my_game": selectors.my_table(tournament, user),
        "my_games": selectors.my_finished_tables(tournament, user),
        "new_table": False,
        "invite_code": invite if not tournament.is_public else None,
        "invite_url": url_of(tournament, invite) if invite and not tournament.is_public else None,
        "chat_heading": CHAT_HEADING,
    }
