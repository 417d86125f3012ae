"""Dates and times as people read them: in the active language's format and the active time
zone (the player's, set by web.timezones), the zone named, so a ban "until 18:00" cannot be
read in another zone. Every page, message and socket frame formats through these two."""

from django.utils import formats, timezone


def when(moment) -> str:
    """A date and time: "Dec. 4, 2026, 7:07 a.m. CET", "4. Dezember 2026 07:07 CET"."""
    local = timezone.localtime(moment)
    return f"{formats.date_format(local, 'DATETIME_FORMAT')} {local.tzname()}"


def day(moment) -> str:
    """A date alone, in the active time zone: "Dec. 4, 2026", "4. Dezember 2026"."""
    return formats.date_format(timezone.localtime(moment), "DATE_FORMAT")
