"""A path or query string holding a NUL character is a 404 (PostgreSQL refuses NUL in text)."""

from django.http import Http404


class NulBytesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path or any(
            "\x00" in key or any("\x00" in value for value in values)
            for key, values in request.GET.lists()
        ):
            raise Http404
        return self.get_response(request)
