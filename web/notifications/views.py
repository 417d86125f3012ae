"""E-mail settings and the one-click unsubscribe of an e-mail's link (docs/notifications.md)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from core.errors import ServiceError
from notifications import selectors, services
from notifications.errors import BadUnsubscribeLink
from web.notifications.forms import PreferenceForm

FIELDS = ("turn_email", "reminder_email", "digest", "quiet_minutes")


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request):
    """The player's e-mail settings: shown (GET), saved (POST; a bad value: 400, nothing saved)."""
    pref = selectors.preference_of(request.user.pk)
    initial = {name: getattr(pref, name) for name in FIELDS}
    form = PreferenceForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.preference_update(user=request.user, **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Your e-mail settings are saved."))
            return redirect("notifications:settings")
    status = 400 if form.errors else 200
    return render(request, "notifications/settings.html", {"form": form}, status=status)


@csrf_exempt  # the signed token is the proof; mail clients' one-click POST has no CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """GET: what the link turns off, and a button (mail clients fetch links on their own, so a
    GET changes nothing). POST (the button, or a client's RFC 8058 one-click): turn it off. A
    forged, expired or used link: 400 and its reason, nothing changed."""
    try:
        if request.method == "POST":
            _user_id, kind = services.unsubscribe(token=token)
            done = True
        else:
            _user_id, kind = selectors.unsubscribe_target(token)
            done = False
    except BadUnsubscribeLink as exc:
        context = {"error": exc.message}
        return render(request, "notifications/unsubscribe.html", context, status=400)
    context = {"kind": kind, "done": done, "token": token}
    return render(request, "notifications/unsubscribe.html", context)
