from django.urls import path
from rest_framework.routers import SimpleRouter

from .api.clubs import ClubViewSet
from .api.competitions import PlayerRoundsView, SectionViewSet, TournamentViewSet
from .api.ratings import LeaderboardView, PlayerHistoryView, PlayerRatingsView

router = SimpleRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("sections", SectionViewSet, basename="section")
urlpatterns = router.urls + [
    path("ratings/", LeaderboardView.as_view(), name="rating-leaderboard"),
    path("ratings/players/<str:username>/", PlayerRatingsView.as_view(), name="rating-player"),
    path("ratings/players/<str:username>/history/", PlayerHistoryView.as_view(), name="rating-history"),
    path("players/<str:username>/rounds/", PlayerRoundsView.as_view(), name="player-rounds"),
]
