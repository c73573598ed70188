"""Pages for live play, mounted at /play/ by config/urls.py."""

from django.urls import path

from . import views

app_name = "games"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.create, name="create"),
    path("<int:game_id>/", views.game_page, name="game"),
    path("<int:game_id>/accept/", views.accept, name="accept"),
    path("<int:game_id>/decline/", views.decline, name="decline"),
    path("<int:game_id>/cancel/", views.cancel, name="cancel"),
    path("<int:game_id>/rematch/", views.rematch, name="rematch"),
    path("<int:game_id>/board/", views.board, name="board"),
    path("<int:game_id>/note/", views.note, name="note"),
    path("<int:game_id>/replay/", views.replay, name="replay"),
    path("match/<int:match_id>/version/", views.match_version, name="match-version"),
]
