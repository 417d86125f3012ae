"""``{{ name|player_name }}`` shows a player's name by the one rule (accounts.names): a bot's
name in the viewer's language (games.labels), cut with an ellipsis, the full name in its
tooltip, never wider than its box. ``short_player_name``: the cut name as text. Loaded in every
template (settings, TEMPLATES builtins)."""

from django import template

from accounts.names import name_html, short_name
from games.labels import player_label

register = template.Library()


@register.filter
def player_name(name) -> str:
    return name_html(player_label(str(name)))


@register.filter
def short_player_name(name) -> str:
    return short_name(player_label(str(name)))
