from django.contrib import messages
from django.contrib.auth import logout
from django.http import HttpRequest
from django.shortcuts import redirect
from django.utils import translation

from accounts.services import ban_in_force, ban_message


class BannedUserMiddleware:
    """Log a banned player out on their next request (a ban for a time that is over is lifted)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and ban_in_force(user):
            message = ban_message(user)
            logout(request)
            messages.error(request, message)
            return redirect("home")
        return self.get_response(request)


class UserLanguageMiddleware:
    """Use the logged-in player's chosen language instead of the browser's."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.language:
            translation.activate(user.language)
            request.LANGUAGE_CODE = user.language
        return self.get_response(request)


def scope_language(scope) -> str:
    """The language of a websocket connection, chosen as for a page: the player's setting,
    else the language cookie, else the browser's Accept-Language, else LANGUAGE_CODE."""
    user = scope.get("user")
    if user is not None and user.is_authenticated and user.language:
        return user.language
    request = HttpRequest()
    request.COOKIES = scope.get("cookies", {})
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)
