"""E-mail settings, the one-click unsubscribe of an e-mail's link, and the browsers' Web Push
subscriptions (docs/notifications.md)."""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from core.errors import BadRequest, ServiceError
from notifications import push, selectors, services
from notifications.errors import BadUnsubscribeLink
from web.notifications.forms import PreferenceForm

FIELDS = ("turn_email", "reminder_email", "digest", "quiet_minutes")
PUSH_ENDPOINT = "push_endpoint"  # the session's key: the endpoint this browser subscribed


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
    offered = push.offered()
    context = {
        "form": form,
        "vapid_public_key": settings.SKYJO_VAPID_PUBLIC_KEY if offered else "",
        "push_endpoints": selectors.push_endpoints(request.user.pk) if offered else [],
        "site_time_zone": settings.TIME_ZONE,
    }
    return render(request, "notifications/settings.html", context, status=status)


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


@require_http_methods(["POST"])
def push_subscribe(request):
    """Save the browser's push subscription, the JSON of its PushSubscription.toJSON(): 200
    ``{"ok": true}``; not logged in: 403; bad JSON or keys, an endpoint not https: 400 and the
    error, nothing saved. The CSRF token comes in the X-CSRFToken header."""
    return _push_call(request, _subscribe)


@require_http_methods(["POST"])
def push_unsubscribe(request):
    """Delete this player's subscription of the JSON's ``endpoint``: 200 ``{"ok": true}``."""
    return _push_call(request, _unsubscribe)


def _subscribe(request, data: dict) -> None:
    keys = data.get("keys") if isinstance(data.get("keys"), dict) else {}
    saved = services.push_subscribe(
        user=request.user,
        endpoint=data.get("endpoint"),
        p256dh=keys.get("p256dh"),
        auth=keys.get("auth"),
    )
    request.session[PUSH_ENDPOINT] = saved.endpoint  # forgotten at log-out


def _unsubscribe(request, data: dict) -> None:
    endpoint = data.get("endpoint")
    services.push_unsubscribe(user=request.user, endpoint=endpoint)
    if request.session.get(PUSH_ENDPOINT) == endpoint:
        del request.session[PUSH_ENDPOINT]


def forget_push_at_logout(sender, request, user, **kwargs) -> None:
    """``user_logged_out``: stop pushing to the browser that logs out (the endpoint it
    subscribed in this session), so the next person at that device sees no one's turns."""
    endpoint = request.session.get(PUSH_ENDPOINT) if request is not None else None
    if user is not None and endpoint:
        services.push_unsubscribe(user=user, endpoint=endpoint)


def _push_call(request, call) -> JsonResponse:
    if not request.user.is_authenticated:
        error = ServiceError(
            _("Log in to get notifications on this device."), code="login_required"
        )
        return JsonResponse(error.to_json(), status=403)
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        data = None
    try:
        if not isinstance(data, dict):
            raise BadRequest(_("The subscription is not a JSON object."))
        call(request, data)
    except ServiceError as exc:
        return JsonResponse(exc.to_json(), status=400)
    return JsonResponse({"ok": True})
