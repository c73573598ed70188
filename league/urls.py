"""Rating pages, mounted at /ratings/ by config/urls.py."""

from django.urls import path, re_path, register_converter

from accounts.converters import AnyUsername

from . import views

register_converter(AnyUsername, "username")

app_name = "league"

urlpatterns = [
    path("", views.leaderboard, name="index"),
    path("go/", views.leaderboard_redirect, name="go"),
    path("player/<username:username>/", views.player, name="player"),
    path("recompute/<int:run_id>/", views.recompute_progress, name="recompute-progress"),
    path("club/<slug:club_slug>/", views.leaderboard, name="club"),
    path("club/<slug:club_slug>/<slug:variant>/", views.leaderboard, name="club-variant"),
    path("<slug:variant>/", views.leaderboard, name="leaderboard"),
]

# -- competitions: mounted at /clubs/ by config/urls.py, namespace "competitions" ------------
_club = "<slug:club_slug>/"
_tournament = _club + "<slug:tournament_slug>/"
_section = _tournament + "<slug:section_slug>/"

competition_urlpatterns = [
    path("", views.clubs, name="clubs"),
    path("calendar/", views.my_calendar, name="my-calendar"),
    # The private link's secret (event_services.new_calendar_link) and nothing else: a
    # username, or a NUL byte, never reaches the database.
    re_path(r"^calendar/(?P<token>[A-Za-z0-9_-]{20,64})\.ics$", views.player_calendar, name="player-calendar"),
    path(_club, views.club, name="club"),
    path(_club + "new-tournament/", views.tournament_new, name="tournament-new"),
    path(_club + "leagues/<slug:league_slug>/<slug:season_slug>/", views.season, name="season"),
    path(_tournament, views.tournament, name="tournament"),
    path(_tournament + "new-section/", views.section_new, name="section-new"),
    path(_tournament + "organise/", views.tournament_action, name="tournament-action"),
    path(_section, views.section, name="section"),
    path(_section + "entry/", views.section_entry, name="section-entry"),
    path(_section + "start/", views.section_start, name="section-start"),
    path(_section + "standings.csv", views.section_standings_csv, name="section-standings-csv"),
    path(_section + "bracket.json", views.section_json, {"kind": "bracket"}, name="section-bracket-json"),
    path(_section + "crosstable.json", views.section_json, {"kind": "crosstable"}, name="section-crosstable-json"),
]
