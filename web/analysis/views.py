"""The analysis on pages: the replay's notes (``replay_analysis``) and the summary fragment of
the game-over screen (``game_analysis_summary``). Both only read what the bot runner stored."""

from collections.abc import Callable
from functools import partial

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from analysis import selectors
from web.analysis import presenters
from web.shortcuts import game_or_404

#: htmx stops polling on this status: the summary is there (or will never be).
STOP_POLLING = 286


def replay_analysis(game, step: int, names, *, viewer_seat) -> tuple[dict, Callable[[], dict]]:
    """The replay's analysis context at ``step``, and a function giving every analysed step's
    note (``{step: note}``), called only when the move list is rendered."""
    state, data = selectors.analysis_of(game)
    context = {"analysis_state": state, "viewer_seat": viewer_seat}
    if data is None:
        return context, dict
    context.update(presenters.step_notes(data, step, viewer_seat, names))
    context["analysis_players"] = presenters.players_summary(data, names, viewer_seat)
    return context, partial(presenters.move_notes, data, names)


@login_required
@require_GET
def game_analysis_summary(request, game_id: int):
    """The summary per player; while pending, the fragment polls itself."""
    game, seat = game_or_404(request, game_id)
    state, data = selectors.analysis_of(game)
    context = {"game": game, "analysis_state": state, "viewer_seat": seat}
    if data is not None:
        names = list(game.players.order_by("seat").values_list("name", flat=True))
        context["analysis_players"] = presenters.players_summary(data, names, seat)
    response = render(request, "analysis/summary.html", context)
    if state != selectors.PENDING:
        response.status_code = STOP_POLLING
    return response
