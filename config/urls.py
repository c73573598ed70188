from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts import views as account_views
from league.urls import competition_urlpatterns

api_v1 = [
    path("accounts/", include("accounts.api_urls")),
    path("", include("league.api_urls")),
    path("", include("games.api_urls")),
]

urlpatterns = [
    path("", account_views.home, name="home"),
    path("healthz", account_views.healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("play/", include("games.urls")),
    path("ratings/", include("league.urls")),
    path("clubs/", include((competition_urlpatterns, "competitions"))),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]
