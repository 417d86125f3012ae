import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.mail import send_mail
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language as django_set_language

from accounts import deletion
from accounts.services import user_set_language, user_warning_read
from web import ratelimit
from web.accounts.forms import (
    AccountDeleteForm,
    PasswordChangeOnlyForm,
    RegistrationForm,
    SettingsForm,
)
from web.redirects import next_url

log = logging.getLogger(__name__)

# In the session of a player who has just registered, until the home page greeted them.
NEW_PLAYER = "skyjo.new_player"


def register(request):
    """The registration form, limited per address (429 with the form as typed): accounts made
    (SKYJO_RATELIMIT_REGISTER) and forms sent (SKYJO_RATELIMIT_REGISTER_TRIES)."""
    next_page = next_url(request)
    if request.user.is_authenticated:
        return redirect(next_page or "home")
    form = RegistrationForm(request.POST or None)
    if request.method == "POST" and (limited := _registration_limited(request)):
        context = {"form": form, "limited": limited, "next": next_page}
        return render(request, "registration/register.html", context, status=429)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        ratelimit.count(request, "SKYJO_RATELIMIT_REGISTER", key="ip", group=REGISTERED)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Skyjo Online, %(name)s!") % {"name": user.username})
        request.session[NEW_PLAYER] = True  # the home page greets them once, not "welcome back"
        return redirect(next_page or "home")
    return render(request, "registration/register.html", {"form": form, "next": next_page})


REGISTERED = "skyjo.register"
REGISTER_TRIES = "skyjo.register.tries"


def _registration_limited(request) -> str | None:
    """The refusal of this POST, or ``None``: the accounts made (looked at: only an account
    made counts), then the forms sent."""
    return ratelimit.refusal(
        request,
        "SKYJO_RATELIMIT_REGISTER",
        _(
            "Too many accounts were registered from your address: at most %(count)s "
            "%(per)s. Try again in %(wait)s. What you typed is kept below (type the "
            "password again)."
        ),
        key="ip",
        group=REGISTERED,
        increment=False,
    ) or ratelimit.refusal(
        request,
        "SKYJO_RATELIMIT_REGISTER_TRIES",
        _(
            "The registration form was sent too often from your address: at most %(count)s "
            "times %(per)s. Try again in %(wait)s. What you typed is kept below (type the "
            "password again)."
        ),
        key="ip",
        group=REGISTER_TRIES,
    )


def _email_limited(request):
    """The answer to an e-mail change too many (SKYJO_RATELIMIT_EMAIL), else ``None``; nothing
    is saved or checked, so the answer tells nothing of the address typed."""
    if _typed_email(None, request) == (request.user.email or "").lower():
        return None
    limited = ratelimit.refusal(
        request,
        "SKYJO_RATELIMIT_EMAIL",
        _(
            "Nothing was saved: your e-mail address may be changed at most %(count)s times "
            "%(per)s. Try again in %(wait)s."
        ),
        key="user",
        group="skyjo.email",
    )
    if limited is None:
        return None
    context = {"form": SettingsForm(instance=request.user), "limited": limited}
    return render(request, "accounts/settings.html", context, status=429)


def _tell_old_address(user, old: str) -> None:
    """Tell the replaced address (in the player's language): resets go to the new one, so a
    change they did not make would otherwise go unnoticed."""
    with translation.override(user.language or translation.get_language()):
        subject = _("Your e-mail address on Skyjo Online was changed")
        body = render_to_string("accounts/email_changed.txt", {"name": user.get_username()})
    try:
        send_mail(subject, body, None, [old])
    except OSError:  # the mail server: the change itself is saved, and stays so
        log.warning("could not tell user %s's old address of its change", user.pk, exc_info=True)


@login_required
def settings_view(request):
    old_email = request.user.email  # the form's validation writes the new one into the user
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and (refused := _email_limited(request)) is not None:
        return refused
    if request.method == "POST" and form.is_valid():
        user = form.save()
        if old_email and old_email.lower() != user.email.lower():
            _tell_old_address(user, old_email)
        if not user.language:  # the browser's, not the cookie's this answer deletes
            request.COOKIES.pop(settings.LANGUAGE_COOKIE_NAME, None)
        language = user.language or translation.get_language_from_request(request)
        translation.activate(language)
        messages.success(request, _("Your settings are saved."))
        response = redirect("accounts:settings")
        if user.language:
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, user.language)
        else:
            response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
        return response
    return render(request, "accounts/settings.html", {"form": form})


def _typed_email(group, request) -> str:
    """The address a reset form names, as the reset looks it up (case and spaces aside)."""
    return (request.POST.get("email") or "").strip().lower()


# Each reset sends an e-mail: limited per address and per address typed, known or not.
password_reset = ratelimit.limit("SKYJO_RATELIMIT_RESET", key="ip", group="skyjo.reset")(
    ratelimit.limit("SKYJO_RATELIMIT_RESET_EMAIL", key=_typed_email, group="skyjo.reset-email")(
        auth_views.PasswordResetView.as_view()
    )
)


# The change form checks the old password: a session left open must not guess it.
password_change = ratelimit.limit("SKYJO_RATELIMIT_PASSWORD", key="user", group="skyjo.password")(
    auth_views.PasswordChangeView.as_view(form_class=PasswordChangeOnlyForm)
)


@login_required
@require_http_methods(["GET", "POST"])
@ratelimit.limit("SKYJO_RATELIMIT_PASSWORD", key="user", group="skyjo.password")
def account_delete(request):
    """Delete one's own account, with one's password (accounts.deletion); the tries count with
    the password changes' (SKYJO_RATELIMIT_PASSWORD)."""
    user = request.user
    if not deletion.may_delete_self(user):
        return render(request, "accounts/delete.html", {"staff": True}, status=403)
    form = AccountDeleteForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        logout(request)
        deletion.account_delete(user)
        messages.success(request, _("Your account is deleted. Thank you for playing!"))
        return redirect("home")
    return render(request, "accounts/delete.html", {"form": form})


@require_POST
def set_language(request):
    """Django's ``set_language`` (the cookie), and a player's own setting, which wins over it;
    through htmx, the answer reloads the page."""
    response = django_set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        user_set_language(user_id=request.user.pk, language=language)
    if request.htmx:
        refresh = HttpResponse(status=204, headers={"HX-Refresh": "true"})
        refresh.cookies = response.cookies
        return refresh
    return response


@login_required
@require_POST
def warning_read(request):
    """The player has read their moderator's warning: back to the page they read it on."""
    user_warning_read(user_id=request.user.pk)
    return redirect(next_url(request, "/"))
