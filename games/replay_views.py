"""The replay of a game that is over, step by step, like lichess's analysis board.

Every step shows the spectator view of that moment (``engine.iter_positions``): a face-down card
stays face down even though the record is public once the game is over. ``?step=N`` picks the
step (out of range: clamped to the first or last; not a whole number: 400). An htmx request gets
only the ``replay-body`` fragment (board, navigation and move list), any other the whole page.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from analysis.views import replay_analysis
from games import engine, rendering, selectors
from games.errors import NotFound
from games.labels import step_text
from games.models import Game

REPLAYABLE = (Game.Status.FINISHED, Game.Status.ABORTED)


def parse_step(raw: str | None, count: int) -> int | None:
    """The step asked for, clamped to ``0 .. count - 1``; ``None`` if it is no whole number.

    >>> parse_step(None, 10), parse_step("4", 10), parse_step("-3", 10), parse_step("99", 10)
    (0, 4, 0, 9)
    >>> parse_step("2.5", 10) is None
    True
    """
    if raw is None:
        return 0
    try:
        step = int(raw)
    except ValueError:
        return None
    return min(max(step, 0), count - 1)


def replay_context(game: Game, step: int, positions: list[engine.Position]) -> dict:
    position = positions[step]
    last = len(positions) - 1
    aborted = game.status == Game.Status.ABORTED and step == last
    meta = {
        "game": game.pk,
        "version": step,
        "status": game.status if aborted else Game.Status.FINISHED,
        "ready": [],
        "away": [],
        "replay": True,
    }
    moves = [
        {"step": p.step, "round": p.round, "kind": p.kind, "text": step_text(p.facts)}
        for p in positions
    ]
    return {
        "game": game,
        "position": position,
        "text": moves[step]["text"],
        "moves": moves,
        "step": step,
        "last": last,
        "previous": max(step - 1, 0),
        "next": min(step + 1, last),
        "positions": positions,
        "board": rendering.board_html(position.view, meta),
        "finished": game.status == Game.Status.FINISHED,
    }


@login_required
@require_GET
def game_replay(request, game_id: int):
    try:
        game, seat = selectors.game_for_user(game_id=game_id, user=request.user)
    except NotFound as exc:
        raise Http404(exc.message) from None
    if game.status not in REPLAYABLE:
        messages.info(request, _("The replay of a game opens once the game is over."))
        return redirect("games:game", game.pk)
    positions = list(engine.iter_positions(game.record))
    step = parse_step(request.GET.get("step"), len(positions))
    if step is None:
        return HttpResponseBadRequest(
            _("The step must be a whole number, e.g. ?step=12."), content_type="text/plain"
        )
    context = replay_context(game, step, positions)
    context.update(replay_analysis(game, step, positions, context["moves"], viewer_seat=seat))
    fragment = request.htmx and not request.htmx.history_restore_request
    template = "games/replay.html#replay-body" if fragment else "games/replay.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request",))
    return response
