"""``{{ moment|when }}`` and ``{{ moment|day }}``: core.when in a ``<time>`` element that holds
the exact moment for machines. Loaded in every template (settings, TEMPLATES builtins)."""

from django import template
from django.utils.html import format_html

from core import when as formatting

register = template.Library()


@register.filter
def when(moment):
    if not moment:
        return ""
    return format_html('<time datetime="{}">{}</time>', moment.isoformat(), formatting.when(moment))


@register.filter
def day(moment):
    if not moment:
        return ""
    return format_html('<time datetime="{}">{}</time>', moment.isoformat(), formatting.day(moment))
