"""``{{ name|player_name }}``: a player's name by accounts.names (cut, the full name in its
tooltip); ``short_player_name``: the cut name as text. Builtins of every template."""

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
