from django.contrib.auth import views as auth_views
from django.urls import path

from . import views
from .limits import throttle_posts

app_name = "accounts"

urlpatterns = [
    # The same per-address counts as the API's sign-up and log-in (accounts/limits.py).
    path("signup/", throttle_posts("signup")(views.signup), name="signup"),
    path(
        "login/",
        throttle_posts("login")(auth_views.LoginView.as_view(template_name="accounts/login.html")),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("profile/", views.profile, name="profile"),
    path("consent/<str:token>/", views.guardian_consent, name="guardian-consent"),
]
