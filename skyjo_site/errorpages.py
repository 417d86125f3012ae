"""The site's own 404 page, also with ``DEBUG`` on; a 503 while the database is out of reach."""

import sys

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.deprecation import MiddlewareMixin
from django.views import defaults

from core.errors import DATABASE_DOWN

RETRY_AFTER = 5  # seconds


class NotFoundPageMiddleware(MiddlewareMixin):
    def process_exception(self, request, exception):
        if not isinstance(exception, Http404) or request.path.startswith("/admin/"):
            return None
        message = str(exception.args[0]) if exception.args else ""
        if message.endswith("matches the given query."):  # get_object_or_404's, in English
            message = ""
        # Only a lobby's or a game's address may be a private one opened without its invite.
        match = request.resolver_match
        private_hint = match is not None and match.namespace == "games"
        context = {"message": message, "private_hint": private_hint}
        return render(request, "404.html", context, status=404)


def server_error(request):
    """``handler500``: Django's 500 page, or while the database is out of reach a 503 with
    ``Retry-After``, rendered without a request context (nothing reads the database)."""
    if isinstance(sys.exc_info()[1], DATABASE_DOWN):
        html = render_to_string("503.html")
        return HttpResponse(html, status=503, headers={"Retry-After": str(RETRY_AFTER)})
    return defaults.server_error(request)
