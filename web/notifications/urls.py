from django.urls import path

from web.notifications import views

app_name = "notifications"

urlpatterns = [
    path("notifications/settings/", views.settings_page, name="settings"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
    path("notifications/push/subscribe/", views.push_subscribe, name="push_subscribe"),
    path("notifications/push/unsubscribe/", views.push_unsubscribe, name="push_unsubscribe"),
]
