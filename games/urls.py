"""Pages for live play (/play/), the rules (/rules/) and the lessons (/learn/), mounted at the root by config/urls.py."""

from django.urls import include, path

from . import lesson_pages, rule_pages, views

app_name = "games"

play_urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.create, name="create"),
    path("<int:game_id>/", views.game_page, name="game"),
    path("<int:game_id>/accept/", views.accept, name="accept"),
    path("<int:game_id>/decline/", views.decline, name="decline"),
    path("<int:game_id>/cancel/", views.cancel, name="cancel"),
    path("<int:game_id>/abort/", views.abort, name="abort"),
    path("<int:game_id>/rematch/", views.rematch, name="rematch"),
    path("<int:game_id>/note/", views.note, name="note"),
    path("<int:game_id>/replay/", views.replay, name="replay"),
    path("match/<int:match_id>/version/", views.match_version, name="match-version"),
]

urlpatterns = [
    path("play/", include(play_urlpatterns)),
    path("rules/", rule_pages.index, name="rules"),
    path("rules/<slug:slug>/", rule_pages.variant_page, name="rules-variant"),
    path("learn/", lesson_pages.learn, name="learn"),
    path("learn/<slug:slug>/", lesson_pages.learn_variant, name="learn-variant"),
]
