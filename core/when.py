"""Dates and times in the active language and time zone, the zone named; time zones by name."""

import zoneinfo

from django.utils import formats, timezone

DAY = "j M Y"  # short enough for a table on a phone, month names in the active language


def when(moment) -> str:
    """A date and time: "4 Dec 2026 07:07 CET", "4 Déc 2026 07:07 CET"."""
    local = timezone.localtime(moment)
    return f"{formats.date_format(local, DAY + ' H:i')} {local.tzname()}"


def day(moment) -> str:
    """A date alone, in the active time zone: "4 Dec 2026", "4 Dez 2026"."""
    return formats.date_format(timezone.localtime(moment), DAY)


def zone_named(name: str | None):
    """The zone called ``name`` ("Europe/Oslo"), or ``None`` for a missing or unknown name."""
    if not name or len(name) > 64:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


def zone_of(user):
    """``user``'s time zone (``User.time_zone``), else the site's."""
    return zone_named(user.time_zone) or timezone.get_default_timezone()
