"""A user's 'your turn' list and count (correspondence games waiting for them): the header's
count on every page, the home page's list, and what the turns socket pushes (the same partials,
swapped out of band by their ids)."""

from django.template.loader import render_to_string
from django.utils import timezone

from accounts.names import short_name
from games import selectors
from games.labels import player_label


def awaiting(user, now=None) -> list[dict]:
    """The games waiting for ``user``, the most urgent first: each with its lobby, the names of
    the other players and when its time for this move runs out (``None``: no clock)."""
    now = now or timezone.now()
    rows = []
    for game, deadline in selectors.games_awaiting_deadlines(user):
        others = (p for p in game.players.all() if p.user_id != user.pk)
        rows.append(
            {
                "game": game,
                "lobby": game.lobby,
                "opponents": ", ".join(short_name(player_label(p.name)) for p in others),
                "deadline": deadline,
                "late": deadline is not None and deadline <= now,
                "started": game.turn_started_at,
            }
        )
    return rows


def newest(rows: list[dict]) -> dict | None:
    """The game whose turn came last (a browser notification names it)."""
    dated = [r for r in rows if r["started"] is not None]
    return max(dated, key=lambda r: r["started"]) if dated else (rows[-1] if rows else None)


def count_html(user, rows: list[dict] | None = None) -> str:
    """The header's count (games/partials/turns_count.html); with ``rows`` (a push) it names
    the newest game too, for the browser's notification."""
    context = {
        "turns_count": selectors.games_awaiting_count(user.pk),
        "turns_newest": newest(rows or []),
    }
    return render_to_string("games/partials/turns_count.html", context)


def list_html(user, rows: list[dict]) -> str:
    """The home page's list (games/partials/turns_list.html)."""
    return render_to_string("games/partials/turns_list.html", {"turns": rows, "user": user})


def push_html(user, *, with_list: bool) -> str:
    """What the turns socket sends after a change: the count, and the list for the home page."""
    rows = awaiting(user)
    html = count_html(user, rows)
    return html + list_html(user, rows) if with_list else html
