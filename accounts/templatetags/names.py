"""``{% load names %}``: ``{{ name|player_name }}`` shows a player's name by the one rule
(accounts.names): cut with an ellipsis, the full name in its tooltip, never wider than its box."""

from django import template

from accounts.names import name_html, short_name

register = template.Library()


@register.filter
def player_name(name) -> str:
    return name_html(str(name))


@register.filter
def short_player_name(name) -> str:
    """The cut name as text (for attributes and titles)."""
    return short_name(str(name))
