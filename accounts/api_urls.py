from django.urls import path

from . import api

urlpatterns = [
    path("signup/", api.SignUpView.as_view(), name="api-signup"),
    path("login/", api.LoginView.as_view(), name="api-login"),
    path("logout/", api.LogoutView.as_view(), name="api-logout"),
    path("me/", api.MeView.as_view(), name="api-me"),
    path("notices/", api.NoticeListView.as_view(), name="api-notices"),
    path("notices/unread-count/", api.UnreadCountView.as_view(), name="api-notices-unread-count"),
    path("notices/read-all/", api.NoticeReadAllView.as_view(), name="api-notices-read-all"),
    path("players/", api.PlayerSearchView.as_view(), name="api-players"),
    path("players/online/", api.PlayersOnlineView.as_view(), name="api-players-online"),
    path("notices/<int:pk>/read/", api.NoticeReadView.as_view(), name="api-notices-read"),
]
