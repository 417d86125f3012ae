from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest
from django.shortcuts import redirect, resolve_url
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin
from django_htmx.http import HttpResponseClientRedirect

from accounts.services import ban_in_force, ban_message


class PlayerMiddleware(MiddlewareMixin):
    """Log a banned player out on their next request (a ban whose time is over is lifted); use
    anyone else's chosen language instead of the browser's."""

    def process_request(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and ban_in_force(user):
            message = ban_message(user)
            logout(request)
            messages.error(request, message)
            return redirect("home")
        if user is not None and user.is_authenticated and user.language:
            translation.activate(user.language)
            request.LANGUAGE_CODE = user.language


class HtmxLoginRedirectMiddleware(MiddlewareMixin):
    """An htmx request sent to log in gets ``HX-Redirect`` (htmx would swap a redirect in)."""

    def process_response(self, request, response):
        login = resolve_url(settings.LOGIN_URL)
        if (
            getattr(request, "htmx", False)
            and response.status_code == 302
            and response["Location"].split("?")[0] == login
        ):
            back = request.htmx.current_url_abs_path or "/"
            return HttpResponseClientRedirect(f"{login}?{urlencode({'next': back})}")
        return response


def scope_language(scope) -> str:
    """A websocket's language, chosen as a page's: the player's, the cookie's, the browser's."""
    user = scope.get("user")
    if user is not None and user.is_authenticated and user.language:
        return user.language
    request = HttpRequest()
    request.COOKIES = scope.get("cookies", {})
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)
