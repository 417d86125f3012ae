from django.contrib import messages
from django.contrib.auth import logout
from django.shortcuts import redirect
from django.utils import translation


class BannedUserMiddleware:
    """Log a banned player out on their next request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.is_banned:
            reason = user.ban_reason or "no reason given"
            logout(request)
            messages.error(request, f"This account is banned: {reason}")
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
