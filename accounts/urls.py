from django.contrib.auth import views as auth_views
from django.urls import path

from . import views
from .forms import LoginForm
from .limits import throttle_posts

app_name = "accounts"

urlpatterns = [
    # The same per-address counts as the API's sign-up and log-in (accounts/limits.py).
    # A refused form (a typo, a taken name) is not counted: the sign-ups made are.
    path("signup/", throttle_posts("signup", refund_if=lambda response: response.status_code != 302)(views.signup),
         name="signup"),
    path("signup/sent/", views.consent_requested, name="consent-requested"),
    path(
        "login/",
        # A log-in that succeeds (a redirect onwards) is not counted: failed ones are.
        throttle_posts("login", refund_if=lambda response: response.status_code == 302)(
            auth_views.LoginView.as_view(template_name="accounts/login.html", authentication_form=LoginForm)
        ),
        name="login",
    ),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", views.PasswordChangeView.as_view(), name="password-change"),
    path("password/reset/", throttle_posts("password-reset")(views.PasswordResetView.as_view()),
         name="password-reset"),
    path("password/reset/sent/",
         auth_views.PasswordResetDoneView.as_view(template_name="accounts/password_reset_sent.html"),
         name="password-reset-sent"),
    path("password/reset/<uidb64>/<token>/", views.PasswordResetConfirmView.as_view(),
         name="password-reset-confirm"),
    path("password/reset/done/",
         auth_views.PasswordResetCompleteView.as_view(template_name="accounts/password_reset_complete.html"),
         name="password-reset-complete"),
    path("profile/", views.profile, name="profile"),
    path("profile/email/", views.email_address, name="email-address"),
    path("profile/emails/", views.notice_emails, name="notice-emails"),
    path("notices/", views.notices, name="notices"),
    path("notices/read/", views.notices_read_all, name="notices-read-all"),
    path("notices/<int:notice_id>/", views.notice_open, name="notice-open"),
    path("consent/<str:token>/", views.guardian_consent, name="guardian-consent"),
]
