"""A path or query string holding a NUL character is a 404 (PostgreSQL refuses NUL in text)."""

from django.http import Http404
from django.utils.deprecation import MiddlewareMixin


class NulBytesMiddleware(MiddlewareMixin):
    def process_request(self, request):
        if "\x00" in request.path or any(
            "\x00" in key or any("\x00" in value for value in values)
            for key, values in request.GET.lists()
        ):
            raise Http404
