"""Page routes: the rating pages, mounted at /ratings/ by config/urls.py, and the club
and competition pages (competition_urlpatterns), mounted at /clubs/."""

from django.urls import path, re_path, register_converter

from accounts.converters import AnyUsername

from .views import clubs as club_views
from .views import competitions as competition_views
from .views import ratings as rating_views
from .views import results as result_views
from .views import seasons as season_views

register_converter(AnyUsername, "username")

app_name = "league"

urlpatterns = [
    path("", rating_views.leaderboard, name="index"),
    path("go/", rating_views.leaderboard_redirect, name="go"),
    path("player/<username:username>/", rating_views.player, name="player"),
    path("recompute/<int:run_id>/", rating_views.recompute_progress, name="recompute-progress"),
    path("club/<slug:club_slug>/", rating_views.leaderboard, name="club"),
    path("club/<slug:club_slug>/<slug:variant>/", rating_views.leaderboard, name="club-variant"),
    path("<slug:variant>/", rating_views.leaderboard, name="leaderboard"),
]

# -- competitions: mounted at /clubs/ by config/urls.py, namespace "competitions" ------------
_club = "<slug:club_slug>/"
_tournament = _club + "<slug:tournament_slug>/"
_section = _tournament + "<slug:section_slug>/"

competition_urlpatterns = [
    path("", club_views.clubs, name="clubs"),
    path("calendar/", competition_views.my_calendar, name="my-calendar"),
    # The private link's secret (event_services.new_calendar_link) and nothing else: a
    # username, or a NUL byte, never reaches the database.
    re_path(r"^calendar/(?P<token>[A-Za-z0-9_-]{20,64})\.ics$", competition_views.player_calendar, name="player-calendar"),
    path(_club, club_views.club, name="club"),
    path(_club + "join/", club_views.club_join, name="club-join"),
    path(_club + "join/answer/", club_views.club_join_answer, name="club-join-answer"),
    path(_club + "new-tournament/", competition_views.tournament_new, name="tournament-new"),
    # Before the season's route: a league or season never takes these slugs (seasons.RESERVED_*_SLUGS).
    path(_club + "leagues/new/", season_views.league_new, name="league-new"),
    path(_club + "leagues/<slug:league_slug>/", competition_views.league, name="league"),
    path(_club + "leagues/<slug:league_slug>/edit/", season_views.league_edit, name="league-edit"),
    path(_club + "leagues/<slug:league_slug>/new-season/", season_views.season_new, name="season-new"),
    path(_club + "leagues/<slug:league_slug>/<slug:season_slug>/", competition_views.season, name="season"),
    path(_club + "leagues/<slug:league_slug>/<slug:season_slug>/edit/", season_views.season_edit, name="season-edit"),
    path(_tournament, competition_views.tournament, name="tournament"),
    path(_tournament + "new-section/", competition_views.section_new, name="section-new"),
    path(_tournament + "new-section/format-settings/", competition_views.section_format_settings,
         name="section-format-settings"),
    path(_tournament + "organise/", competition_views.tournament_action, name="tournament-action"),
    # Under organise/: a section may be called anything but "organise" (sections.RESERVED_SECTION_SLUGS).
    path(_tournament + "organise/edit/", competition_views.tournament_edit, name="tournament-edit"),
    path(_tournament + "organise/delete/", competition_views.tournament_delete, name="tournament-delete"),
    path(_section, competition_views.section, name="section"),
    path(_section + "entry/", competition_views.section_entry, name="section-entry"),
    path(_section + "start/", competition_views.section_start, name="section-start"),
    path(_section + "end/", competition_views.section_end, name="section-end"),
    path(_section + "edit/", competition_views.section_edit, name="section-edit"),
    path(_section + "delete/", competition_views.section_delete, name="section-delete"),
    path(_section + "players/", competition_views.section_players, name="section-players"),
    path(_section + "swiss-pairing/", competition_views.section_swiss_pairing, name="section-swiss-pairing"),
    path(_section + "standings.csv", competition_views.section_standings_csv, name="section-standings-csv"),
    path(_section + "bracket.json", competition_views.section_json, {"kind": "bracket"}, name="section-bracket-json"),
    path(_section + "crosstable.json", competition_views.section_json, {"kind": "crosstable"}, name="section-crosstable-json"),
    path(_section + "results/", result_views.results, name="section-results"),
    path(_section + "results.png", result_views.results_image, name="section-results-image"),
]
