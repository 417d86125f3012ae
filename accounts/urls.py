from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("accounts/register/", views.register, name="register"),
    path("accounts/settings/", views.settings_view, name="settings"),
    path("u/<str:username>/", views.profile, name="profile"),
    path("players/", views.leaderboard, name="leaderboard"),
]
