from rest_framework.routers import SimpleRouter

from .api import ClubViewSet

router = SimpleRouter()
router.register("clubs", ClubViewSet, basename="club")
urlpatterns = router.urls
