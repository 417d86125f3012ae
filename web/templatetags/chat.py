"""``{% load chat %}{% chat_panel game=game seat=seat %}`` or ``{% chat_panel lobby=lobby %}``
(``heading=...``: the panel's own name): the chat panel of a page, with the last messages the
logged-in reader may see."""

from django import template
from django.utils.safestring import mark_safe

from web.chat import rendering

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_panel(context, game=None, seat=None, lobby=None, heading=None):
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return ""
    if game is not None:
        panel = rendering.panel_context(
            user=user, game_id=game.pk, player=seat is not None, over=game.is_over
        )
    else:
        panel = rendering.panel_context(user=user, lobby_id=lobby.pk, heading=heading)
    return mark_safe(rendering.panel_html(panel))  # rendered by autoescaping templates


@register.inclusion_tag("chat/settings.html", takes_context=True)
def chat_settings(context):
    """The settings page's chat part: the chat switch and the muted players, each with Unmute."""
    from accounts.models import User
    from chat.selectors import muted_ids

    user = context["user"]
    muted = User.objects.filter(pk__in=muted_ids(user)).order_by("username")
    return {"user": user, "muted": muted, "csrf_token": context.get("csrf_token")}
