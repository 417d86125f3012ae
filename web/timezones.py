"""The player's time zone, from the ``skyjo_tz`` cookie page.js sets; an unknown name: the site's
TIME_ZONE."""

import zoneinfo

from django.utils import timezone
from django.utils.deprecation import MiddlewareMixin

COOKIE = "skyjo_tz"


def zone_named(name: str | None):
    """The zone called ``name``, or ``None`` for a missing or unknown name."""
    if not name or len(name) > 64:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


class TimeZoneMiddleware(MiddlewareMixin):
    def process_request(self, request):
        zone = zone_named(request.COOKIES.get(COOKIE))
        timezone.activate(zone or timezone.get_default_timezone())
