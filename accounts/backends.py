"""The log-in backend: Django's ModelBackend, with the user's profile loaded in the
same query. Every signed-in page names its user from the profile (``User.name``, the
menu in templates/base.html), so Django's own backend cost a second query on each of
them (bench/live_costs.py, "404 page, signed in": 5 statements, 4 with this).

It also tells a log-in door that asks (``ask_about_consent``) when the username and
password are right but the account is still waiting for its guardian's consent: it
raises :class:`AwaitingConsent` instead of answering "no user". Nothing is said for a
wrong password (no account is revealed), and since ``authenticate`` then ends with an
exception rather than a failure, django-axes counts no failed log-in for the right
password (docs/accounts.md, "Logging in before the guardian consents")."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend

from .models import GuardianConsent, User

#: Set on a request (``ask_about_consent``) by a log-in door that catches AwaitingConsent.
ASKS_ABOUT_CONSENT = "accounts_asks_about_consent"


class AwaitingConsent(Exception):
    """The password is right; the account opens once ``consent`` is given."""

    def __init__(self, consent: GuardianConsent) -> None:
        super().__init__("awaiting-consent")
        self.consent = consent


def ask_about_consent(request: Any) -> None:
    """Opt this request in: ``authenticate`` may raise AwaitingConsent. Other callers
    (the admin's log-in) keep Django's answer, None."""
    setattr(request, ASKS_ABOUT_CONSENT, True)


def awaiting_consent(user: User) -> GuardianConsent | None:
    """The guardian consent a closed account is waiting for: asked, neither given nor
    withdrawn. None for any other account (a deactivated one)."""
    if user.is_active:
        return None
    return GuardianConsent.objects.filter(user=user, granted_at__isnull=True, revoked_at__isnull=True).first()


class ProfileModelBackend(ModelBackend):
    def authenticate(self, request: Any, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> Any:
        # ModelBackend.authenticate's own steps (one password hash, known user or not),
        # with the closed account's case told apart after its right password.
        if username is None:
            username = kwargs.get(User.USERNAME_FIELD)
        if username is None or password is None:
            return None
        try:
            user = User._default_manager.get_by_natural_key(username)
        except User.DoesNotExist:
            User().set_password(password)  # as long as a known user's check (Django's #20760)
            return None
        if not user.check_password(password):
            return None
        if self.user_can_authenticate(user):
            return user
        if request is not None and getattr(request, ASKS_ABOUT_CONSENT, False):
            consent = awaiting_consent(user)
            if consent is not None:
                raise AwaitingConsent(consent)
        return None

    def get_user(self, user_id: Any) -> Any:
        try:
            user = User.objects.select_related("profile").get(pk=user_id)
        except User.DoesNotExist:
            return None
        return user if self.user_can_authenticate(user) else None
