from django.urls import path

from web.analysis import views

app_name = "analysis"

urlpatterns = [path("games/<id:game_id>/analysis/", views.game_analysis_summary, name="summary")]
