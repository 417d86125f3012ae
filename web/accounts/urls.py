from django.urls import path

from web.accounts import views
from web.stats import views as stats_views

app_name = "accounts"

urlpatterns = [
    path("accounts/register/", views.register, name="register"),
    path("accounts/settings/", views.settings_view, name="settings"),
    path("accounts/delete/", views.account_delete, name="delete"),
    path("language/", views.set_language, name="language"),
    path("accounts/warning/read/", views.warning_read, name="warning_read"),
    path("u/<str:username>/", stats_views.profile, name="profile"),
    path("players/", stats_views.leaderboard, name="leaderboard"),
]
