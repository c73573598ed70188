from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import views as account_views
from league.urls import competition_urlpatterns
from moderation.round_views import urlpatterns as arbiter_urlpatterns

from . import views

# The admin console under the platform's name (its pages' titles and header).
admin.site.site_header = admin.site.site_title = "Tic Tac Toe League admin"
admin.site.index_title = "Administration"

api_v1 = [
    path("accounts/", include("accounts.api_urls")),
    path("", include("league.api_urls")),
    path("", include("games.api_urls")),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/", include("accounts.urls")),
    path("", include("games.urls")),  # /play/, /rules/ and /learn/
    path("players/", account_views.players, name="players"),
    path("ratings/", include("league.urls")),
    path("clubs/", include((competition_urlpatterns, "competitions"))),
    path("clubs/", include((arbiter_urlpatterns, "arbiter"))),  # a round's preview, TRF out and in
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script from ?script, not inline (CSP).
    # GET only: its OPTIONS would render the page's template without one (a 500).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema", template_name="api/swagger_ui.html",
                                                          http_method_names=["get", "head"]),
         name="api-docs"),
]

# Under /api/ even a URL that matches nothing answers in the API's error shape.
handler400 = "config.api.handler400"
handler403 = "config.api.handler403"
handler404 = "config.api.handler404"
handler500 = "config.api.handler500"
