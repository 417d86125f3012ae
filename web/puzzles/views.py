"""Puzzle pages: a puzzle from its player's view and its answer, the next puzzle near the
player's rating, streak mode, and the report of a puzzle that seems wrong."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import NotFound, ServiceError
from moderation import services as moderation_services
from moderation.models import Report
from puzzles import selectors, services
from puzzles.models import Puzzle
from web.puzzles import presenters

STREAK = "streak"


def _puzzle_or_404(puzzle_id: int) -> Puzzle:
    puzzle = selectors.puzzle_by_id(puzzle_id)
    if puzzle is None:
        raise Http404(_("There is no such puzzle."))
    return puzzle


def _url(puzzle_id: int, streak: bool) -> str:
    url = reverse("puzzles:puzzle", args=[puzzle_id])
    return f"{url}?mode={STREAK}" if streak else url


def puzzle(request, puzzle_id: int):
    """A puzzle: the question (GET), an answer (POST, then back here), or its result."""
    item = _puzzle_or_404(puzzle_id)
    streak = STREAK in (request.GET.get("mode"), request.POST.get("mode"))
    error = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            answer = services.puzzle_answer(
                user=request.user,
                puzzle_id=item.pk,
                code=request.POST.get("answer", ""),
                streak=streak,
            )
        except NotFound as exc:
            raise Http404(exc.message) from None
        except ServiceError as exc:
            error = exc.message
        else:
            _tell_streak(request, answer, streak)
            return redirect(_url(item.pk, streak) + "#puzzle-result")  # read first
    attempt = selectors.attempt_of(request.user, item)
    solver = selectors.solver_of(request.user)
    shown = attempt is not None or request.user.has_perm("moderation.view_report")
    context = {
        "puzzle": item,
        "board": presenters.board(item, answerable=attempt is None),
        "question": presenters.question(item),
        "attempt": attempt,
        "result": presenters.result(item, attempt.answer if attempt else None) if shown else None,
        "solver": solver,
        "streak": streak,
        "error": error,
        "mode": STREAK if streak else "",
    }
    if attempt is not None:
        context["change"] = round(40 * (attempt.rating_after - attempt.rating_before))
    return render(request, "puzzles/puzzle.html", context, status=400 if error else 200)


def _tell_streak(request, answer, streak: bool) -> None:
    if not streak:
        return
    if answer.attempt.solved:
        n = answer.solver.streak
        messages.success(request, _("Streak: %(n)s solved in a row.") % {"n": n})
    else:
        n = answer.streak_ended
        messages.info(request, _("Missed: the streak ends. Solved in a row: %(n)s.") % {"n": n})


@login_required
def next_puzzle(request):
    """The untried puzzle nearest the player's puzzle rating (streak mode: ``?mode=streak``)."""
    streak = request.GET.get("mode") == STREAK
    solver = selectors.solver_of(request.user)
    found = selectors.next_puzzle(request.user, solver.mu)
    if found is None:
        return render(request, "puzzles/none.html", {"solver": solver, "streak": streak})
    return redirect(_url(found.pk, streak))


class ReportForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("What seems wrong?"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


@login_required
def report(request, puzzle_id: int):
    """Report a puzzle that seems wrong: a moderation report of kind "puzzle"."""
    item = _puzzle_or_404(puzzle_id)
    form = ReportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            _report, created = moderation_services.report_create(
                reporter=request.user,
                kind=Report.Kind.PUZZLE,
                target_id=item.pk,
                reason=Report.Reason.OTHER,
                text=form.cleaned_data["text"],
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            if created:
                messages.success(
                    request,
                    _("Thank you: your report was received. A moderator will look at it."),
                )
            else:
                messages.info(
                    request, _("You have reported this already: a moderator will look at it.")
                )
            return redirect("puzzles:puzzle", item.pk)
    return render(request, "puzzles/report.html", {"puzzle": item, "form": form})
