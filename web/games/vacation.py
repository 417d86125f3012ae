"""The vacation page: a player's correspondence clocks paused for some days (the days left this
calendar year shown), started with a form or ended early. Writes go through games.services."""

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import ServiceError
from games import selectors, services


class VacationForm(forms.Form):
    days = forms.IntegerField(
        label=gettext_lazy("Days"),
        min_value=1,
        initial=7,
        error_messages={
            "required": gettext_lazy("Say how many days your vacation lasts."),
            "invalid": gettext_lazy("The number of days is a whole number."),
            "min_value": gettext_lazy("A vacation lasts at least one day."),
        },
    )


@login_required
def vacation(request):
    """GET: the page; POST ``start`` with ``days``, or ``end``: the vacation's service."""
    form = VacationForm(request.POST if "start" in request.POST else None)
    if request.method == "POST" and "end" in request.POST:
        try:
            services.vacation_end(user=request.user)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Your vacation is over: your clocks run again."))
        return redirect("games:vacation")
    if request.method == "POST" and form.is_valid():
        try:
            services.vacation_start(user=request.user, days=form.cleaned_data["days"])
        except ServiceError as exc:
            form.add_error("days", exc.message)
        else:
            messages.success(request, _("Your vacation has started: your clocks are paused."))
            return redirect("games:vacation")
    context = {
        "form": form,
        "current": selectors.vacation_of(request.user),
        "days_left": selectors.vacation_days_left(request.user),
        "days_a_year": settings.SKYJO_VACATION_DAYS,
    }
    return render(request, "games/vacation.html", context, status=400 if form.errors else 200)
