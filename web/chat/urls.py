from django.urls import path

from web.chat import views

app_name = "chat"

urlpatterns = [
    path("chat/mute/<id:user_id>/", views.mute, name="mute"),
    path("chat/enable/", views.enable, name="enable"),
]
