"""Pages and JSON endpoints of lobbies and games. Writes go through games.services."""

import time
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from core.errors import NotAPlayer, NotFound, ServiceError
from games import records, selectors, services
from games.models import MAX_SEATS, MIN_SEATS, MOVE_DAYS, TURN_CLOCKS, Game, Lobby
from puzzles import selectors as puzzles_selectors
from tournaments import selectors as tournaments_selectors
from web.accounts.views import NEW_PLAYER
from web.games import rendering
from web.games.presenters import LEVEL_CHOICES, lobby_context, public_of
from web.ratelimit import limit
from web.shortcuts import game_or_404, lobby_or_404

END_SCORE = {"label": gettext_lazy("End score"), "min_value": 1, "max_value": 1000, "initial": 100}


class BotGameForm(forms.Form):
    bots = forms.TypedChoiceField(
        label=gettext_lazy("Bots"),
        choices=[(n, str(n)) for n in range(1, MAX_SEATS)],
        coerce=int,
        initial=3,
    )
    level = forms.ChoiceField(label=gettext_lazy("Level"), choices=LEVEL_CHOICES, initial="medium")
    end_score = forms.IntegerField(**END_SCORE)


# Every POST also counts against SKYJO_RATELIMIT_WRITE (web.ratelimit).
create_limit = limit("SKYJO_RATELIMIT_CREATE", key="user", group="skyjo.create")
join_limit = limit("SKYJO_RATELIMIT_JOIN", key="user", group="skyjo.join")


def _try(request, service, **kwargs):
    """``service(**kwargs)``, or ``None`` with its ``ServiceError``'s message shown."""
    try:
        return service(**kwargs)
    except ServiceError as exc:
        messages.error(request, exc.message)


def home(request):
    new_player = request.session.pop(NEW_PLAYER, False)  # welcomed, not welcomed "back"
    context = {
        "bot_form": BotGameForm(),
        "new_player": new_player,
        "daily_puzzle": puzzles_selectors.puzzle_of_the_day(timezone.localdate()),
        "in_progress": selectors.games_in_progress(request.user),
    }
    return render(request, "games/home.html", context)


@login_required
@require_POST
@create_limit
def play_bots(request):
    """One click from the home page: a private game against bots, started at once."""
    form = BotGameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose 1 to 7 bots, a level and an end score from 1 to 1000."))
    elif game := _try(request, services.bot_game_create, user=request.user, **form.cleaned_data):
        return redirect("games:game", game.pk)
    return redirect("games:home")


TURN_CLOCK_CHOICES = [
    (s, format_lazy(gettext_lazy("{seconds} seconds"), seconds=s) if s else gettext_lazy("Off"))
    for s in TURN_CLOCKS
]


LIVE, CORRESPONDENCE = "live", "correspondence"
PACE_CHOICES = [
    (LIVE, gettext_lazy("Live: everyone at the table now")),
    (CORRESPONDENCE, gettext_lazy("Correspondence: a move when you like, over days")),
]
MOVE_DAY_CHOICES = [
    (d, format_lazy(ngettext_lazy("{n} day", "{n} days", d), n=d)) for d in MOVE_DAYS
]
MOVE_DAYS_ERROR = format_lazy(
    gettext_lazy("The time per move is {days} days."), days=", ".join(map(str, MOVE_DAYS))
)
ON_TIMEOUT_CHOICES = [
    (Lobby.OnTimeout.BOT, gettext_lazy("The medium bot plays the turn")),
    (
        Lobby.OnTimeout.FORFEIT,
        gettext_lazy("The player loses and the game goes on without them"),
    ),
]
ON_TIMEOUT_ERROR = gettext_lazy("When time runs out, the bot plays the turn or the player loses.")


def _checked(label) -> forms.BooleanField:
    return forms.BooleanField(label=label, required=False, initial=True)


class LobbyForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"), max_length=60, initial=gettext_lazy("Skyjo table")
    )
    seat_count = forms.TypedChoiceField(
        label=gettext_lazy("Seats"),
        choices=[(n, str(n)) for n in range(MIN_SEATS, MAX_SEATS + 1)],
        coerce=int,
        initial=4,
    )
    is_public = _checked(gettext_lazy("Public (listed here; otherwise join by invite link)"))
    end_score = forms.IntegerField(**END_SCORE, help_text=gettext_lazy("Default 100."))
    double_on_tie = _checked(gettext_lazy("Double the ender's score on a tie too"))
    final_reveal_clears_columns = _checked(
        gettext_lazy("Columns completed by the final reveal are removed")
    )
    # Preselected for people at a table; a client that leaves the field out gets no clock.
    turn_clock = forms.TypedChoiceField(
        label=gettext_lazy("Turn clock"),
        choices=TURN_CLOCK_CHOICES,
        coerce=int,
        required=False,
        empty_value=0,
        initial=60,
        help_text=gettext_lazy(
            "Time for each turn and for getting ready: when it runs out, the medium bot plays "
            "that turn. Off: players may take as long as they like."
        ),
    )
    # Live (a turn clock in seconds) or correspondence (days per move, a game over days).
    pace = forms.ChoiceField(
        label=gettext_lazy("How to play"),
        choices=PACE_CHOICES,
        widget=forms.RadioSelect,
        required=False,
        initial=LIVE,
        error_messages={"invalid_choice": gettext_lazy("Choose live or correspondence.")},
    )
    move_days = forms.TypedChoiceField(
        label=gettext_lazy("Time per move (correspondence)"),
        choices=MOVE_DAY_CHOICES,
        coerce=int,
        required=False,
        empty_value=0,
        initial=2,
        error_messages={"invalid_choice": MOVE_DAYS_ERROR},
    )
    on_timeout = forms.ChoiceField(
        label=gettext_lazy("When time runs out (correspondence)"),
        choices=ON_TIMEOUT_CHOICES,
        widget=forms.RadioSelect,
        required=False,
        initial=Lobby.OnTimeout.BOT,
        error_messages={"invalid_choice": ON_TIMEOUT_ERROR},
    )

    field_order = [
        "name", "seat_count", "is_public", "end_score", "double_on_tie",
        "final_reveal_clears_columns", "pace", "turn_clock", "move_days", "on_timeout",
    ]  # fmt: skip

    def clean(self):
        """A live lobby has no days per move; a correspondence one no turn clock (its days)."""
        data = super().clean()
        if data.get("pace") == CORRESPONDENCE:
            if not data.get("move_days") and "move_days" not in self.errors:
                self.add_error("move_days", MOVE_DAYS_ERROR)
            data["turn_clock"] = 0
        else:
            data["move_days"] = 0
        data["on_timeout"] = data.get("on_timeout") or Lobby.OnTimeout.BOT
        return data

    def lobby_kwargs(self) -> dict:
        """The cleaned data as ``games.services.lobby_create`` takes it."""
        return {k: v for k, v in self.cleaned_data.items() if k != "pace"}


@login_required
@create_limit
def lobby_list(request):
    form = LobbyForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        try:
            lobby = services.lobby_create(host=request.user, **form.lobby_kwargs())
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect("games:lobby", lobby.pk)
    context = {
        "form": form,
        "lobbies": selectors.open_lobbies(),
        "games": selectors.running_public_games(),
        "mine": selectors.my_lobbies(request.user),
    }
    return render(request, "games/lobby_list.html", context)


@login_required
def lobby_detail(request, lobby_id: int, invite_code: str | None = None):
    lobby = lobby_or_404(request, lobby_id, invite_code)
    context = lobby_context(lobby, request.user, invite_code)
    # To the game, for whoever may see it: a private game's late invitee is told here.
    if lobby.status == Lobby.Status.PLAYING and lobby.game_id:
        if context["my_seat"] or selectors.may_watch(lobby, request.user):
            return redirect("games:game", lobby.game_id)
        if lobby.invited_by(invite_code):  # a late invitee watches, the code in the address
            return redirect(
                f"{reverse('games:game', args=[lobby.game_id])}?{_invite_query(invite_code)}"
            )
    # Offered while the lobby takes players, to its players (and anyone, when it is public).
    if lobby.status == Lobby.Status.OPEN and (context["my_seat"] or lobby.is_public):
        link = f"/lobbies/invite/{lobby.invite_code}/"
        context["invite_url"] = request.build_absolute_uri(link)
    return render(request, "games/lobby.html", context)


@login_required
def lobby_invite(request, code: str):
    lobby = Lobby.objects.filter(invite_code=code).first()
    if lobby is None:
        raise Http404(_("This invite link is not valid."))
    return lobby_detail(request, lobby.pk, invite_code=code)


@login_required
@require_POST
@join_limit
def lobby_join(request, lobby_id: int):
    code = request.POST.get("invite_code") or None
    lobby_or_404(request, lobby_id, code)
    try:
        services.lobby_join(lobby_id=lobby_id, user=request.user, invite_code=code)
    except ServiceError as exc:
        messages.error(request, exc.message)
        if code:
            try:
                return redirect("games:lobby_invite", code)
            except NoReverseMatch:  # no invite link holds such a code ("/" in it)
                pass
    return redirect("games:lobby", lobby_id)


@login_required
@require_POST
def lobby_leave(request, lobby_id: int):
    lobby_or_404(request, lobby_id)
    if _try(request, services.lobby_leave, lobby_id=lobby_id, user=request.user) is None:
        return redirect("games:lobby", lobby_id)
    messages.info(request, _("You left the lobby."))
    return redirect("games:lobbies")


@login_required
@require_POST
def lobby_seat_action(request, lobby_id: int, seat_index: int, service):
    """The host's ``service`` (named by the URL) on a seat; a bot added at the ``level`` posted."""
    lobby_or_404(request, lobby_id)
    extra = {"level": request.POST.get("level", "")} if service is services.lobby_add_bot else {}
    _try(request, service, lobby_id=lobby_id, host=request.user, seat_index=seat_index, **extra)
    return redirect("games:lobby", lobby_id)


@login_required
@require_POST
@join_limit
def lobby_start(request, lobby_id: int):
    lobby_or_404(request, lobby_id)
    if game := _try(request, services.lobby_start, lobby_id=lobby_id, user=request.user):
        return redirect("games:game", game.pk)
    return redirect("games:lobby", lobby_id)


def _invite_query(code: str) -> str:
    return urlencode({"invite": code})


@login_required
def game_detail(request, game_id: int):
    game, seat = game_or_404(request, game_id)
    state = selectors.game_state(game=game, seat=seat)
    public = public_of(state.view)
    terms = selectors.ending(game, seat)
    invite = request.GET.get("invite") if seat is None else None
    context = {
        "game": game,
        "seat": seat,
        "invite_query": _invite_query(invite) if invite else "",
        "board": rendering.board_html(public, state.meta),
        "controls": rendering.controls_html(state.view, state.meta),
        "can_end": terms is not None,
        "end_counts": terms is not None and terms.counts,
        "end_aborts": terms is not None and terms.aborts,
        "tournament": (
            None
            if game.lobby.offers_rematch
            else tournaments_selectors.tournament_of_game(game.pk, request.user)
        ),
        "clock_forms": rendering.clock_forms(),
        # The turn clock's ticker (static/js/clock.js) reads its offset to this server's clock.
        "server_now_ms": int(time.time() * 1000),
        # The server speaks at least this often: a longer silence is a dead socket (game.js).
        "heartbeat_ms": int(settings.SKYJO_WS_HEARTBEAT * 1000),
    }
    return render(request, "games/game.html", context)


@login_required
@require_GET
@cache_control(no_store=True)
def game_state_json(request, game_id: int):
    game, seat = game_or_404(request, game_id)
    state = selectors.game_state(game=game, seat=seat)
    data = {**state.view.to_json(), "version": game.version}
    if state.meta.get("clock"):  # only while a turn clock runs: docs/protocol.md
        data["clock"] = state.meta["clock"]
    return JsonResponse(data)


@login_required
@require_GET
def game_record_json(request, game_id: int):
    game, _seat = game_or_404(request, game_id)
    if game.status != Game.Status.FINISHED:
        message = _("The record of a game is published once the game is over.")
        return JsonResponse(ServiceError(message, code="game_not_finished").to_json(), status=403)
    response = JsonResponse(records.finished_record(game))
    response["Content-Disposition"] = f'inline; filename="skyjo-game-{game.pk}.json"'
    return response


@login_required
@require_POST
@join_limit
def game_rematch(request, game_id: int):
    game_or_404(request, game_id)  # a private game's stranger: as if there were none
    new = _try(request, services.game_rematch, game_id=game_id, user=request.user)
    return redirect("games:game", new.pk if new else game_id)


@login_required
@require_GET
def game_end_confirmation(request, game_id: int):
    """The confirmation of "End this game" as it stands now (the page's may be older than the
    player's first move); 404 when the viewer may not end this game."""
    game, seat = game_or_404(request, game_id)
    terms = selectors.ending(game, seat)
    if terms is None:
        raise Http404  # the page shows no button then: nobody asks but by hand
    context = {"game": game, "end_counts": terms.counts, "end_aborts": terms.aborts}
    return render(request, "games/partials/end_game.html", context)


@login_required
@require_POST
def game_abandon(request, game_id: int):
    """The only human of a game against bots ends it; ``counts`` (1 or 0) is what the form told
    them, so that a move made since never changes what they agreed to."""
    told = {"1": True, "0": False}.get(request.POST.get("counts"))
    game_or_404(request, game_id)  # a private game's stranger: as if there were none
    try:
        counted = services.game_abandon(game_id=game_id, user=request.user, counts=told)
    except (NotAPlayer, NotFound) as exc:  # a spectator of a public game: nothing to end
        messages.error(request, exc.message)
        return redirect("games:home")
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("games:game", game_id)
    counts = _("The game has ended: it counts as a loss, in last place.")
    voided = _("The game has ended: it counts in no statistics and no rating.")
    messages.success(request, counts if counted else voided)
    return redirect("games:home")
