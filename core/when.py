"""Dates and times in the active language and time zone, the zone named; time zones by name."""

import zoneinfo

from django.utils import formats, timezone, translation

# Short enough for a table on a phone, the month abbreviated as each language writes it: "4 Dec
# 2026", "4. Dez. 2026", "4. des. 2026", "4 dec 2026", "4 déc. 2026".
DAYS = {"en": "j M Y", "de": "j. N Y", "nb": "j. N Y"}
DAY = "j N Y"


def day_format() -> str:
    return DAYS.get(translation.get_language(), DAY)


def when(moment) -> str:
    """A date and time: "4 Dec 2026 07:07 CET", "4 déc. 2026 07:07 CET"."""
    local = timezone.localtime(moment)
    return f"{formats.date_format(local, day_format() + ' H:i')} {local.tzname()}"


def day(moment) -> str:
    """A date alone, in the active time zone: "4 Dec 2026", "4. Dez. 2026"."""
    return formats.date_format(timezone.localtime(moment), day_format())


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
