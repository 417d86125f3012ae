"""The site's own 404 page for a view's ``Http404`` (a private lobby without its invite link, a
game that is not there), also when ``DEBUG`` is on: players running the site locally should not
meet Django's debug page for something that is no bug. With ``DEBUG`` off Django renders
``templates/404.html``, ``403.html`` and ``500.html`` by itself for every other case."""

from django.http import Http404
from django.shortcuts import render


class NotFoundPageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, Http404) or request.path.startswith("/admin/"):
            return None
        message = str(exception.args[0]) if exception.args else ""
        if message.endswith("matches the given query."):  # get_object_or_404's, in English
            message = ""
        return render(request, "404.html", {"message": message}, status=404)
