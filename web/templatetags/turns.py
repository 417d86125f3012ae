"""``{% load turns %}``: a lobby's pace (``{{ lobby|pace }}``: live, or correspondence and its
days per move), the header's 'your turn' count and its socket (``{% turns_badge %}``), and the
home page's 'your turn' list (``{% your_turns %}``), as the turns socket pushes them."""

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from web.games import turns

register = template.Library()


@register.filter
def pace(lobby) -> str:
    """ "Live", or "Correspondence · 2 days per move"."""
    if not lobby.is_correspondence:
        return _("Live")
    days = ngettext("{n} day per move", "{n} days per move", lobby.move_days)
    return _("Correspondence · {days}").format(days=days.format(n=lobby.move_days))


@register.filter
def on_timeout(lobby) -> str:
    """What happens when a correspondence player's time for a move runs out."""
    if lobby.on_timeout == lobby.OnTimeout.FORFEIT:
        return _("When time runs out, the player loses and the game goes on without them.")
    return _("When time runs out, the medium bot plays that turn.")


@register.simple_tag(takes_context=True)
def turns_badge(context, with_list: bool = False):
    """The header's link to the 'your turn' list, its count and the socket that keeps it live
    (``?list=1``: the home page, whose list the socket pushes too)."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return ""
    html = render_to_string(
        "games/partials/turns_badge.html",
        {"count": mark_safe(turns.count_html(user)), "with_list": with_list},
    )
    return mark_safe(html)


@register.simple_tag(takes_context=True)
def your_turns(context):
    """The home page's list of the correspondence games waiting for the reader."""
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return ""
    return mark_safe(turns.list_html(user, turns.awaiting(user)))
