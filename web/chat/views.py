"""A player's chat settings (mute a player, the chat on or off): 204 to htmx (the reader's
sockets redraw their panels), else a redirect back."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from accounts.models import User
from chat import services
from web.redirects import local_url


def _answer(request):
    if getattr(request, "htmx", False):
        return HttpResponse(status=204)
    back = request.POST.get("next") or request.headers.get("referer")
    return redirect(local_url(request, back) or "accounts:settings")


def _on(request) -> bool:
    return request.POST.get("on", "1") not in ("0", "false", "")


@login_required
@require_POST
def mute(request, user_id: int):
    muted = get_object_or_404(User, pk=user_id)
    services.mute_set(muter=request.user, muted=muted, on=_on(request))
    return _answer(request)


@login_required
@require_POST
def enable(request):
    services.chat_enable(user=request.user, enabled=_on(request))
    return _answer(request)
