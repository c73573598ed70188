"""Games, house-rule sets and variants under /api/v1/ (see docs/games.md)."""

from django.urls import path

from .api import games, matches, rule_sets

urlpatterns = [
    path("games/", games.GameListCreateView.as_view(), name="api-games"),
    path("games/<int:pk>/", games.GameDetailView.as_view(), name="api-game"),
    path("games/<int:pk>/moves/", games.GameMovesView.as_view(), name="api-game-moves"),
    path("games/<int:pk>/accept/", games.GameAcceptView.as_view(), name="api-game-accept"),
    path("games/<int:pk>/decline/", games.GameDeclineView.as_view(), name="api-game-decline"),
    path("games/<int:pk>/rematch/", games.GameRematchView.as_view(), name="api-game-rematch"),
    path("games/<int:pk>/resign/", games.GameResignView.as_view(), name="api-game-resign"),
    path("games/<int:pk>/abort/", games.GameAbortView.as_view(), name="api-game-abort"),
    path("games/<int:pk>/claim-timeout/", games.GameClaimTimeoutView.as_view(), name="api-game-claim-timeout"),
    path("games/<int:pk>/note/", games.GameNoteView.as_view(), name="api-game-note"),
    path("matches/<int:pk>/version/", matches.MatchVersionView.as_view(), name="api-match-version"),
    path("rule-sets/", rule_sets.RuleSetListCreateView.as_view(), name="api-rule-sets"),
    path("rule-sets/<int:pk>/", rule_sets.RuleSetDetailView.as_view(), name="api-rule-set"),
    path("rule-sets/<int:pk>/revise/", rule_sets.RuleSetReviseView.as_view(), name="api-rule-set-revise"),
    path("variants/", rule_sets.VariantListView.as_view(), name="api-variants"),
]
