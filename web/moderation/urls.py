from django.urls import path

from web.moderation import views

app_name = "moderation"

urlpatterns = [
    path("report/player/<str:username>/", views.report_player, name="report_player"),
    path("report/game/<id:game_id>/", views.report_game, name="report_game"),
    path("report/message/<id:message_id>/", views.report_message, name="report_message"),
    path("moderation/", views.queue, name="queue"),
    path("moderation/players/<str:username>/", views.player_file, name="player"),
    path("moderation/games/<id:game_id>/", views.game_file, name="game"),
    path("moderation/log/", views.audit_log, name="log"),
    path("moderation/tournaments/", views.tournaments, name="tournaments"),
    path("moderation/<str:action>/<id:pk>/", views.act, name="act"),
]
