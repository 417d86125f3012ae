"""``{{ moment|when }}`` and ``{{ moment|day }}``: core.when in a ``<time>`` element that holds
the exact moment for machines. Loaded in every template (settings, TEMPLATES builtins)."""

from django import template
from django.utils.html import format_html

from core import when as formatting

register = template.Library()


def _time(moment, text) -> str:
    return format_html('<time datetime="{}">{}</time>', moment.isoformat(), text(moment))


@register.filter
def when(moment):
    return _time(moment, formatting.when) if moment else ""


@register.filter
def day(moment):
    return _time(moment, formatting.day) if moment else ""
