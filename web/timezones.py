"""The player's time zone, from the ``skyjo_tz`` cookie page.js sets; an unknown name: the site's
TIME_ZONE. A logged-in player's zone is remembered for what the site writes without a request
(the deadlines of e-mails and pushes)."""

from django.utils import timezone
from django.utils.deprecation import MiddlewareMixin

from accounts.services import user_set_time_zone
from core.when import zone_named

COOKIE = "skyjo_tz"


class TimeZoneMiddleware(MiddlewareMixin):
    def process_request(self, request):
        name = request.COOKIES.get(COOKIE)
        zone = zone_named(name)
        timezone.activate(zone or timezone.get_default_timezone())
        user = getattr(request, "user", None)
        if zone is not None and user is not None and user.is_authenticated:
            _remember(user, name)


def _remember(user, name: str) -> None:
    """Save ``name`` as ``user``'s zone when it is another one (a write once per change)."""
    if user.time_zone != name:
        user_set_time_zone(user_id=user.pk, name=name)
        user.time_zone = name
