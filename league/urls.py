"""Rating pages, mounted at /ratings/ by config/urls.py."""

from django.urls import path

from . import views

app_name = "league"

urlpatterns = [
    path("", views.leaderboard, name="index"),
    path("go/", views.leaderboard_redirect, name="go"),
    path("player/<str:username>/", views.player, name="player"),
    path("recompute/<int:run_id>/", views.recompute_progress, name="recompute-progress"),
    path("club/<slug:club_slug>/", views.leaderboard, name="club"),
    path("club/<slug:club_slug>/<slug:variant>/", views.leaderboard, name="club-variant"),
    path("<slug:variant>/", views.leaderboard, name="leaderboard"),
]
