"""Site URLs: each delivery app's, and Django's auth views under ``/accounts/``."""

from django.contrib import admin
from django.urls import include, path

from web import converters  # noqa: F401  (registers <id:...>, used by the URLs)
from web.accounts import views as accounts_views
from web.accounts.forms import LoginForm, PasswordSetForm
from web.accounts.lockout import LoginView, PasswordResetConfirmView
from web.games import views as games_views

urlpatterns = [
    path("", games_views.home, name="home"),
    path("admin/", admin.site.urls),
    path(
        "accounts/login/",
        LoginView.as_view(authentication_form=LoginForm, redirect_authenticated_user=True),
        name="login",
    ),
    # Django's own views, with forms that save the password column alone (not the whole row).
    path("accounts/password_change/", accounts_views.password_change, name="password_change"),
    path("accounts/password_reset/", accounts_views.password_reset, name="password_reset"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        PasswordResetConfirmView.as_view(form_class=PasswordSetForm),
        name="password_reset_confirm",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("web.accounts.urls")),
    path("", include("web.chat.urls")),
    path("", include("web.games.urls")),
    path("", include("web.moderation.urls")),
    path("", include("web.notifications.urls")),
    path("", include("web.analysis.urls")),
    path("", include("web.pwa.urls")),
    path("", include("web.puzzles.urls")),
    path("", include("web.tournaments.urls")),
]

handler500 = "skyjo_site.errorpages.server_error"
