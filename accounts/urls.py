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
    path("profile/emails/", views.notice_emails, name="notice-emails"),
    path("notices/", views.notices, name="notices"),
    path("notices/read/", views.notices_read_all, name="notices-read-all"),
    path("notices/<int:notice_id>/", views.notice_open, name="notice-open"),
    path("consent/<str:token>/", views.guardian_consent, name="guardian-consent"),
]
