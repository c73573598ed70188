from django.urls import path

from . import api

urlpatterns = [
    path("signup/", api.SignUpView.as_view(), name="api-signup"),
    path("login/", api.LoginView.as_view(), name="api-login"),
    path("logout/", api.LogoutView.as_view(), name="api-logout"),
    path("me/", api.MeView.as_view(), name="api-me"),
]
