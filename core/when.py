"""Dates and times in the active language and time zone, the zone named."""

from django.utils import formats, timezone

DAY = "j M Y"  # short enough for a table on a phone, month names in the active language


def when(moment) -> str:
    """A date and time: "4 Dec 2026 07:07 CET", "4 Déc 2026 07:07 CET"."""
    local = timezone.localtime(moment)
    return f"{formats.date_format(local, DAY + ' H:i')} {local.tzname()}"


def day(moment) -> str:
    """A date alone, in the active time zone: "4 Dec 2026", "4 Dez 2026"."""
    return formats.date_format(timezone.localtime(moment), DAY)
