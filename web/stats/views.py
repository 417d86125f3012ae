"""The profile page (``/u/<name>/``) and the players page (``/players/``)."""

from urllib.parse import urlencode

from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from stats import profile_cache, queries
from tournaments import selectors as tournament_selectors
from web.stats import charts

PERIODS = ("all", "30d")
KINDS = ("live", "correspondence")
MIN_GAMES = (1, 5, 20, 100)


def rating_chart(history: list[dict], *, correspondence: bool = False) -> dict:
    """The rating history's chart and its text alternative (of the live rating, or of the
    correspondence one)."""
    if not history:
        return {}
    values = [history[0]["rating_before"]] + [h["rating_after"] for h in history]
    labels = [""] + [h["rated_at"].strftime("%d.%m") for h in history]
    return {
        "chart": charts.line_chart(
            [(_("Correspondence rating") if correspondence else _("Rating"), values)], labels
        ),
        "title": _("Correspondence rating history") if correspondence else _("Rating history"),
        "description": _(
            "Rating over the last %(games)d rated games: from %(first)d to %(last)d, "
            "highest %(high)d, lowest %(low)d."
        )
        % {
            "games": len(history),
            "first": values[0],
            "last": values[-1],
            "high": max(values),
            "low": min(values),
        },
    }


def distribution_chart(distribution: list[tuple[int, int]]) -> dict:
    if not distribution:
        return {}
    last = queries.BUCKET - 1  # a bar holds the scores from its start to this many more
    parts = [
        _("%(low)d to %(high)d: %(count)d") % {"low": low, "high": low + last, "count": n}
        for low, n in distribution
        if n
    ]
    return {
        "chart": charts.bar_chart([(f"{low}–{low + last}", n) for low, n in distribution]),
        "title": _("Round scores"),
        "description": _("Rounds by score: %(parts)s.") % {"parts": "; ".join(parts)},
    }


def profile(request, username):
    """A player's page: their figures (cached per change of their games, stats.profile_cache)
    and a page of their history (read every time: it shows running games too)."""
    player = profile_cache.profile_owner(username, request.user)

    def panels(figures) -> str:
        # With the player's tournament figures: a tournament's end renews their token too.
        tournaments = render_to_string(
            "tournaments/partials/profile_figures.html",
            {"tournaments": tournament_selectors.player_figures(player.pk)},
        )
        sides = [
            (_("Against people"), "people", figures.people),
            (_("With bots"), "bots", figures.bots),
        ]
        context = {
            "player": player,
            "profile": figures,
            "rating": rating_chart(figures.rating_history),
            "corr_rating": rating_chart(figures.corr_rating_history, correspondence=True),
        }
        context["sides"] = [(*side, distribution_chart(side[2].distribution)) for side in sides]
        return render_to_string("stats/profile_stats.html", context) + tournaments

    history = queries.player_history(player, viewer=request.user, page=request.GET.get("page"))
    # A viewer who shares no private game with the player sees what a visitor sees.
    public = profile_cache.viewer_kind(player, request.user) == profile_cache.PUBLIC
    seen_by = None if public else request.user
    figures, html = profile_cache.figures(
        player, request.user, lambda: queries.player_profile(player, viewer=seen_by), panels
    )
    context = {
        "player": player,
        "is_own_profile": request.user == player,
        "profile": figures,
        "stats_panels": html,
        "history": history,
    }
    return render(request, "accounts/profile.html", context)


def _choice(value, choices, default):
    try:
        value = type(default)(value)
    except (TypeError, ValueError):
        return default
    return value if value in choices else default


def leaderboard(request):
    """The rating leaderboard, paged and filtered in SQL, with the viewer's rank."""
    period = _choice(request.GET.get("period"), PERIODS, "all")
    min_games = _choice(request.GET.get("min"), MIN_GAMES, 1)
    kind = _choice(request.GET.get("kind"), KINDS, "live")
    search = request.GET.get("q", "").strip()[:40]
    page = queries.leaderboard(
        kind=kind,
        period=period,
        min_games=min_games,
        search=search,
        page=request.GET.get("page"),
        viewer=request.user,
    )
    my_rank = page.my_rank
    context = {
        "page": page,
        "me": request.user.pk,
        "kind": kind,
        "kinds": [("live", _("Live ratings")), ("correspondence", _("Correspondence ratings"))],
        "period": period,
        "min_games": min_games,
        "search": search,
        "my_rank": my_rank,
        "my_page": (my_rank - 1) // queries.LEADERBOARD_PAGE + 1 if my_rank else None,
        "min_choices": MIN_GAMES,
        "query": urlencode({"kind": kind, "q": search, "period": period, "min": min_games}) + "&",
    }
    return render(request, "accounts/leaderboard.html", context)
