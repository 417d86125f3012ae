"""A user's 'your turn' list and count (correspondence games waiting for them): the header's
count on every page, the home page's list, and what the turns socket pushes (the same partials,
swapped out of band by their ids)."""

from datetime import timedelta

from django.template.loader import render_to_string
from django.utils import timezone

from accounts.names import short_name
from games import clock, selectors
from games.labels import player_label
from games.models import Vacation


def awaiting(user, now=None) -> list[dict]:
    """The games waiting for ``user``, the most urgent first: each with its lobby, the names of
    the other players and when its time for this move runs out (``None``: no clock), their
    vacations since the turn began added as the clock adds them."""
    now = now or timezone.now()
    games = list(selectors.games_awaiting(user))
    starts = [g.turn_started_at for g in games if g.turn_started_at is not None]
    vacations = _vacations(user, min(starts)) if starts else []
    rows = []
    for game in games:
        lobby = game.lobby
        deadline = None
        if lobby.move_days and game.turn_started_at is not None:
            deadline = game.turn_started_at + timedelta(days=lobby.move_days)
            deadline += clock.paused(vacations, game.turn_started_at)  # as games.clock counts
        rows.append(
            {
                "game": game,
                "lobby": lobby,
                "opponents": ", ".join(
                    short_name(player_label(p.name))
                    for p in game.players.all()
                    if p.user_id != user.pk
                ),
                "deadline": deadline,
                "late": deadline is not None and deadline <= now,
                "started": game.turn_started_at,
            }
        )
    return rows


def _vacations(user, since) -> list[tuple]:
    """``user``'s vacations that ended after ``since``, as ``(start, end)``; one running now
    counts to its planned end, as the clock's deadline does."""
    found = Vacation.objects.filter(user=user.pk, ends_at__gt=since)
    return list(found.values_list("starts_at", "ends_at"))


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
