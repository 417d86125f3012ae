"""Builtins of every template: ``player_name`` (cut, full name in its tooltip),
``short_player_name``, ``player``, ``players`` (a list, joined) and ``table`` (bots' names and
titles translated)."""

from django import template

from accounts.names import name_html, short_name
from games.labels import player_label, table_label

register = template.Library()


@register.filter
def player_name(name) -> str:
    return name_html(player_label(str(name)))


@register.filter
def short_player_name(name) -> str:
    return short_name(player_label(str(name)))


@register.filter
def player(name) -> str:
    return player_label(str(name))


@register.filter
def players(names) -> str:
    """Names joined with commas, each cut and translated as ``short_player_name`` does."""
    return ", ".join(short_name(player_label(str(n))) for n in names)


@register.filter
def table(name) -> str:
    return table_label(str(name))
