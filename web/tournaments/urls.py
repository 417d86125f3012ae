from django.urls import path

from web.tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("tournaments/", views.tournament_list, name="list"),
    path("tournaments/<id:tournament_id>/", views.tournament_detail, name="detail"),
    path("tournaments/<id:tournament_id>/join/", views.tournament_join, name="join"),
    path("tournaments/<id:tournament_id>/pause/", views.tournament_pause, name="pause"),
    path("tournaments/<id:tournament_id>/withdraw/", views.tournament_withdraw, name="withdraw"),
]
