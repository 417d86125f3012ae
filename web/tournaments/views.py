"""Tournament pages: the list (and the form that makes one), the live page, join, pause and
withdraw. A refusal is shown on the page the player is on, and changes nothing."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from tournaments import selectors, services
from web.ratelimit import limit
from web.tournaments import rendering
from web.tournaments.forms import TournamentForm

# As a lobby's: every POST also counts against SKYJO_RATELIMIT_WRITE (web.ratelimit).
create_limit = limit("SKYJO_RATELIMIT_CREATE", key="user", group="skyjo.create")
join_limit = limit("SKYJO_RATELIMIT_JOIN", key="user", group="skyjo.join")


@login_required
@create_limit
def tournament_list(request):
    """The tournaments the reader may see, and the form that makes a private one (public ones
    are scheduled on the moderation pages: web.moderation.views.tournaments)."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        made = form.create(by=request.user)
        if made is not None:
            return redirect(rendering.url_of(made))
    context = {"form": form, **selectors.tournament_lists(request.user)}
    return render(request, "tournaments/list.html", context)


def _visible(request, tournament_id: int, code: str | None):
    tournament = selectors.tournament_get(tournament_id)
    if tournament is None or not rendering.may_see(tournament, request.user, code):
        raise Http404("There is no such tournament.")
    return tournament


@login_required
def tournament_detail(request, tournament_id: int):
    code = request.GET.get("invite") or None
    tournament = _visible(request, tournament_id, code)
    context = rendering.page_context(tournament, request.user, code)
    return render(request, "tournaments/detail.html", context)


def _act(request, tournament_id: int, call) -> object:
    code = request.POST.get("invite_code") or None
    tournament = _visible(request, tournament_id, code)
    try:
        call(tournament, code)
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect(rendering.url_of(tournament, code))


@login_required
@require_POST
@join_limit
def tournament_join(request, tournament_id: int):
    def join(tournament, code):
        services.tournament_join(tournament_id=tournament.pk, user=request.user, invite_code=code)

    return _act(request, tournament_id, join)


@login_required
@require_POST
def tournament_pause(request, tournament_id: int):
    paused = request.POST.get("paused") == "1"

    def pause(tournament, code):
        services.entry_pause(tournament_id=tournament.pk, user=request.user, paused=paused)

    return _act(request, tournament_id, pause)


@login_required
@require_POST
def tournament_withdraw(request, tournament_id: int):
    def leave(tournament, code):
        services.entry_withdraw(tournament_id=tournament.pk, user=request.user)

    return _act(request, tournament_id, leave)
