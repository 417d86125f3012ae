"""The replay of a game that is over (``?step=N``; htmx: only ``replay-body``). Its move list is
rendered once per language and analysis state, limited per user (SKYJO_RATELIMIT_REPLAY); a page
that holds it names it (``MOVES_HEADER``) and gets a placeholder."""

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from core.caches import BoundedCache
from games import engine, records
from games.labels import step_text
from games.models import Game
from web import ratelimit
from web.analysis.views import replay_analysis
from web.games import rendering
from web.shortcuts import game_or_404

REPLAYABLE = (Game.Status.FINISHED, Game.Status.ABORTED)


# (game, status, language, analysis state) -> (steps, the move list with a mark per step).
_move_lists = BoundedCache(32)
_MARK = re.compile("\x00[0-9]+\x00|\x01[0-9]+\x01")


def render_move_list(game: Game, record: dict, notes: dict) -> tuple[int, str]:
    """``(number of steps, the move list's HTML)``, marked for :func:`mark_current`."""
    moves = [
        {
            "step": p.step,
            "round": p.round,
            "kind": p.kind,
            "text": step_text(p.facts),
            "note": notes.get(p.step),
            "mark": mark_safe(f"\x00{p.step}\x00"),
            "mark_link": mark_safe(f"\x01{p.step}\x01"),
        }
        for p in engine.iter_positions(record)
    ]
    here = reverse("games:replay", args=[game.pk])
    html = render_to_string("games/partials/replay_moves.html", {"moves": moves, "here": here})
    return len(moves), html


MOVES_HEADER = "X-Skyjo-Moves"
KEPT_MOVES = mark_safe('<div class="moves-scroll" id="moves" hx-preserve></div>')


def mark_current(html: str, step: int) -> str:
    html = html.replace(f"\x00{step}\x00", " is-current", 1)
    return mark_safe(_MARK.sub("", html.replace(f"\x01{step}\x01", ' aria-current="step"', 1)))


def replay_context(game: Game, step: int, last: int, position: engine.Position) -> dict:
    aborted = game.status == Game.Status.ABORTED and step == last
    status = game.status if aborted else Game.Status.FINISHED
    meta = {"game": game.pk, "version": step, "status": status, "ready": [], "away": []}
    meta["replay"] = True
    return {
        "game": game,
        "position": position,
        "text": step_text(position.facts),
        "step": step,
        "last": last,
        "previous": max(step - 1, 0),
        "next": min(step + 1, last),
        "board": rendering.board_html(position.view, meta),
        "finished": game.status == Game.Status.FINISHED,
    }


@login_required
@require_GET
def game_replay(request, game_id: int):
    game, seat = game_or_404(request, game_id)
    if game.status not in REPLAYABLE:
        messages.info(request, _("The replay of a game opens once the game is over."))
        return redirect("games:game", game.pk)
    record = records.finished_record(game)
    try:
        step = max(int(request.GET.get("step", 0)), 0)  # past the last: below
    except ValueError:
        return _bad_step(request, game)
    analysis, move_notes = replay_analysis(game, step, record["players"], viewer_seat=seat)
    key = (game.pk, game.status, translation.get_language(), analysis["analysis_state"])
    found = _move_lists.get(key)
    if found is None:
        if limited := _move_list_limited(request):
            return limited
        found = render_move_list(game, record, move_notes())
        _move_lists.put(key, found)
    count, moves_html = found
    if step >= count:  # past the last step: the last, with its notes
        step = count - 1
        analysis, _notes = replay_analysis(game, step, record["players"], viewer_seat=seat)
    context = replay_context(game, step, count - 1, engine.position_at(record, step))
    fragment = request.htmx and not request.htmx.history_restore_request
    if fragment and request.headers.get(MOVES_HEADER) == analysis["analysis_state"]:
        moves_html = KEPT_MOVES  # the page holds this list: static/js/replay.js marks the step
    else:
        moves_html = mark_current(moves_html, step)
    context.update(analysis, moves_html=moves_html)
    template = "games/replay.html#replay-body" if fragment else "games/replay.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request", MOVES_HEADER))
    return response


def _bad_step(request, game: Game):
    """A ``step`` that is no whole number: the page opens at the first step and says why; an
    htmx step (the page's own links never send one) gets a 400."""
    message = _("The step must be a whole number, e.g. ?step=12.")
    if request.htmx:
        return HttpResponseBadRequest(message, content_type="text/plain")
    messages.error(request, message)
    return redirect("games:replay", game.pk)


def _move_list_limited(request):
    """The answer to a move list too many to render, else ``None``; an htmx step reloads the
    page, which says why."""
    message = ratelimit.refusal(
        request,
        "SKYJO_RATELIMIT_REPLAY",
        _(
            "You opened many replays in a short time: at most %(count)s %(per)s. Try again in "
            "%(wait)s; the replays you opened last still open."
        ),
        key="user",
        group="skyjo.replay",
        method="GET",
    )
    if message is None:
        return None
    response = render(request, "ratelimited.html", {"message": message}, status=429)
    if request.htmx:
        response["HX-Refresh"] = "true"
    return response
