"""Builtins of every template: ``{{ name|player_name }}`` (cut, the full name in its tooltip),
``short_player_name`` (the cut name as text), ``{{ name|player }}`` and ``{{ lobby.name|table }}``
(bots' names and bot games' titles in the viewer's language, games.labels)."""

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
def table(name) -> str:
    return table_label(str(name))
