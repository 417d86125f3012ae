"""Players report a message, a player or a game; moderators read the queue, the files and the
audit log, and act through moderation.services (a POST, checked against their permission);
they schedule the public tournaments."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.names import short_name
from core.access import perm
from core.errors import NotFound, ServiceError
from games.models import Game
from moderation import selectors, services
from moderation.models import Report
from tournaments import selectors as tournament_selectors
from web.moderation.forms import ActionForm, BanForm, ReportForm, SanctionForm, WarnForm
from web.redirects import next_url
from web.shortcuts import game_or_404
from web.tournaments.forms import TournamentForm


def _report_page(request, *, title, back, kind, target_id, targets=None, game_id=None):
    """The report form for one target (or, with ``targets``, one of several), and its
    answer: received, or received already."""
    form = ReportForm(request.POST or None, targets=targets)
    if request.method == "POST" and form.is_valid():
        chosen_kind, chosen_id = kind, target_id
        if form.cleaned_data.get("target", "game") != "game":  # a player at the game
            chosen_kind, chosen_id = Report.Kind.PLAYER, int(form.cleaned_data["target"])
        try:
            _report, created = services.report_create(
                reporter=request.user,
                kind=chosen_kind,
                target_id=chosen_id,
                reason=form.cleaned_data["reason"],
                text=form.cleaned_data["text"],
                game_id=game_id,
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            if created:
                thanks = _("Thank you: your report was received. A moderator will look at it.")
                messages.success(request, thanks)
            else:
                messages.info(
                    request, _("You have reported this already: a moderator will look at it.")
                )
            return redirect(next_url(request, back))
    mine = Report.objects.filter(reporter=request.user, kind=kind, **{f"{kind}_id": target_id})
    earlier = None if targets else mine.first()
    context = {"form": form, "title": title, "back": next_url(request, back), "earlier": earlier}
    return render(request, "moderation/report.html", context)


@login_required
def report_player(request, username):
    player = get_object_or_404(User, username=username, is_active=True)
    if player == request.user:
        raise Http404
    return _report_page(
        request,
        title=_("Report %(name)s") % {"name": short_name(player.username)},
        back=reverse("accounts:profile", args=[player.username]),
        kind=Report.Kind.PLAYER,
        target_id=player.pk,
    )


@login_required
def report_game(request, game_id):
    """From the table: the game itself, or one of the other people at it."""
    game, _seat = game_or_404(request, game_id)
    others = [
        (str(p.user_id), _("The player %(name)s") % {"name": short_name(p.name)})
        for p in game.players.exclude(user=None).exclude(user=request.user).order_by("seat")
    ]
    return _report_page(
        request,
        title=_("Report a problem at %(table)s") % {"table": game.lobby.name},
        back=reverse("games:game", args=[game.pk]),
        kind=Report.Kind.GAME,
        target_id=game.pk,
        targets=[("game", _("This game")), *others],
        game_id=game.pk,
    )


@login_required
def report_message(request, message_id):
    try:  # only a message the reporter may read
        message = services.readable_message(request.user, message_id)
    except NotFound as exc:
        raise Http404 from exc
    if message.author_id == request.user.pk:
        raise Http404
    return _report_page(
        request,
        title=_("Report a message by %(name)s") % {"name": short_name(message.author.username)},
        back=reverse("games:game", args=[message.game_id])
        if message.game_id
        else reverse("games:lobby", args=[message.lobby_id]),
        kind=Report.Kind.MESSAGE,
        target_id=message.pk,
    )


moderator = permission_required(perm("view_report"), raise_exception=True)


def _with_forms(request, template: str, **context):
    """A moderator's page with what its action forms offer."""
    forms = {
        "next": request.get_full_path(),
        "silence_choices": SanctionForm.base_fields["duration"].choices,
        "ban_choices": BanForm.base_fields["duration"].choices,
    }
    return render(request, template, {**context, "forms": forms})


@moderator
def queue(request):
    items, total = selectors.open_reports(viewer=request.user)
    return _with_forms(request, "moderation/queue.html", items=items, total=total)


@moderator
def player_file(request, username):
    player = get_object_or_404(User, username=username)
    file = selectors.player_file(player, viewer=request.user)
    return _with_forms(request, "moderation/player.html", file=file)


@moderator
def game_file(request, game_id):
    game = get_object_or_404(Game.objects.select_related("lobby"), pk=game_id)
    return _with_forms(request, "moderation/game.html", file=selectors.game_file(game))


@permission_required(perm("view_auditentry"), raise_exception=True)
def audit_log(request):
    name = request.GET.get("player")
    player = User.objects.filter(username=name).first() if name else None
    context = {"entries": selectors.audit_log(player=player), "player": player}
    return render(request, "moderation/log.html", context)


@moderator
def tournaments(request):
    """The public tournaments running and scheduled (with their repeat), and the form that
    schedules one, once or repeating (web.tournaments.forms.TournamentForm)."""
    form = TournamentForm(request.POST or None, public=True)
    if request.method == "POST" and form.is_valid():
        made = form.create(by=request.user)
        if made is not None:
            messages.success(request, _("The tournament is scheduled."))
            return redirect("moderation:tournaments")
    context = {"form": form, **tournament_selectors.public_schedule()}
    return render(request, "moderation/tournaments.html", context)


# Moderators' actions: name -> (permission, moderation.services function named by its target,
# done); a warning needs a reason, a silence and a ban a reason and a duration.
ACTIONS = {
    "dismiss": ("dismiss_report", "report_dismiss", gettext_lazy("The report is dismissed.")),
    "hide": ("hide_message", "message_hide", gettext_lazy("The message is hidden.")),
    "warn": (
        "silence_player",
        "player_warn",
        gettext_lazy("The player is warned: they read it on their next page."),
    ),
    "silence": (
        "silence_player",
        "player_silence",
        gettext_lazy("The player is silenced in the chat."),
    ),
    "unsilence": ("silence_player", "player_unsilence", gettext_lazy("The silence is lifted.")),
    "ban": ("ban_player", "player_ban", gettext_lazy("The player is banned.")),
    "unban": ("ban_player", "player_unban", gettext_lazy("The ban is lifted.")),
    "close_lobby": ("close_lobby", "lobby_close", gettext_lazy("The lobby is closed.")),
    "stop_game": ("stop_game", "game_stop", gettext_lazy("The game is stopped and voided.")),
}
FORMS = {"warn": WarnForm, "silence": SanctionForm, "ban": BanForm}
NO_REPORT = {"report_dismiss", "player_unsilence", "player_unban"}


@require_POST
def act(request, action: str, pk: int):
    """One moderator action on one thing (``pk``: the report, message, player, lobby or game),
    then back to the page it was done from."""
    if action not in ACTIONS:
        raise Http404
    codename, service, done = ACTIONS[action]
    if not request.user.has_perm(perm(codename)):
        raise PermissionDenied
    form = FORMS.get(action, ActionForm)(request.POST)
    back = next_url(request, reverse("moderation:queue"))
    if not form.is_valid():
        messages.error(request, form.refused)
        return redirect(back)
    thing = service.split("_")[0]
    kwargs = {
        "user_id" if thing == "player" else f"{thing}_id": pk,
        "reason": form.cleaned_data["reason"],
    }
    if service not in NO_REPORT:
        kwargs["report_id"] = form.cleaned_data["report"]
    if isinstance(form, SanctionForm):
        kwargs["until"] = form.until()
    try:
        changed = getattr(services, service)(moderator=request.user, **kwargs)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        if changed:
            messages.success(request, done)
        else:
            messages.info(request, _("Nothing to do: it was done already."))
    return redirect(back)
