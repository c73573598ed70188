"""Games, house-rule sets and variants under /api/v1/ (see docs/api.md)."""

from django.urls import path

from . import api

urlpatterns = [
    path("games/", api.GameListCreateView.as_view(), name="api-games"),
    path("games/<int:pk>/", api.GameDetailView.as_view(), name="api-game"),
    path("games/<int:pk>/moves/", api.GameMovesView.as_view(), name="api-game-moves"),
    path("games/<int:pk>/accept/", api.GameAcceptView.as_view(), name="api-game-accept"),
    path("games/<int:pk>/resign/", api.GameResignView.as_view(), name="api-game-resign"),
    path("games/<int:pk>/abort/", api.GameAbortView.as_view(), name="api-game-abort"),
    path("games/<int:pk>/claim-timeout/", api.GameClaimTimeoutView.as_view(), name="api-game-claim-timeout"),
    path("games/<int:pk>/note/", api.GameNoteView.as_view(), name="api-game-note"),
    path("matches/<int:pk>/version/", api.MatchVersionView.as_view(), name="api-match-version"),
    path("rule-sets/", api.RuleSetListCreateView.as_view(), name="api-rule-sets"),
    path("rule-sets/<int:pk>/", api.RuleSetDetailView.as_view(), name="api-rule-set"),
    path("rule-sets/<int:pk>/revise/", api.RuleSetReviseView.as_view(), name="api-rule-set-revise"),
    path("variants/", api.VariantListView.as_view(), name="api-variants"),
]
