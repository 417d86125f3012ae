"""``{{ name|player }}`` and ``{{ lobby.name|table }}``: bots' names and bot games' titles in
the viewer's language (games.labels); builtins of every template."""

from django import template

from games.labels import player_label, table_label

register = template.Library()


@register.filter
def player(name) -> str:
    return player_label(str(name))


@register.filter
def table(name) -> str:
    return table_label(str(name))
