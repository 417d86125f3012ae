from django.urls import path
from django.views.generic import TemplateView

from games import services
from web.games import replay as replay_views
from web.games import vacation, views

app_name = "games"
BOTS = "lobbies/<id:lobby_id>/bots/<id:seat_index>/"
REMOVE = "lobbies/<id:lobby_id>/remove/<id:seat_index>/"
SEAT = views.lobby_seat_action  # the host's action on a seat

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", TemplateView.as_view(template_name="games/rules.html"), name="rules"),
    path("lobbies/", views.lobby_list, name="lobbies"),
    path("lobbies/invite/<str:code>/", views.lobby_invite, name="lobby_invite"),
    path("lobbies/<id:lobby_id>/", views.lobby_detail, name="lobby"),
    path("lobbies/<id:lobby_id>/join/", views.lobby_join, name="lobby_join"),
    path("lobbies/<id:lobby_id>/leave/", views.lobby_leave, name="lobby_leave"),
    path(REMOVE, SEAT, {"service": services.lobby_remove_player}, name="lobby_remove"),
    path("lobbies/<id:lobby_id>/start/", views.lobby_start, name="lobby_start"),
    path(f"{BOTS}add/", SEAT, {"service": services.lobby_add_bot}, name="lobby_add_bot"),
    path(f"{BOTS}remove/", SEAT, {"service": services.lobby_remove_bot}, name="lobby_remove_bot"),
    path("play/bots/", views.play_bots, name="play_bots"),
    path("games/<id:game_id>/", views.game_detail, name="game"),
    path("games/<id:game_id>/state.json", views.game_state_json, name="game_state"),
    path("games/<id:game_id>/record.json", views.game_record_json, name="game_record"),
    path("games/<id:game_id>/replay/", replay_views.game_replay, name="replay"),
    path("games/<id:game_id>/rematch/", views.game_rematch, name="rematch"),
    path("games/<id:game_id>/end/", views.game_abandon, name="abandon"),
    path("games/<id:game_id>/end/confirm/", views.game_end_confirmation, name="end_confirmation"),
    path("vacation/", vacation.vacation, name="vacation"),
]
