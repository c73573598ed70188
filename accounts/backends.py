"""The log-in backend: Django's ModelBackend, with the user's profile loaded in the
same query. Every signed-in page names its user from the profile (``User.name``, the
menu in templates/base.html), so Django's own backend cost a second query on each of
them (bench/live_costs.py, "404 page, signed in": 5 statements, 4 with this).

It also tells a log-in door that asks (``ask_about_consent``) when the username and
password are right but the account is still waiting for its guardian's consent: it
raises :class:`AwaitingConsent` instead of answering "no user". Nothing is said for a
wrong password (no account is revealed), and since ``authenticate`` then ends with an
exception rather than a failure, django-axes counts no failed log-in for the right
password (docs/accounts.md, "Logging in before the guardian consents").

A username is found in any case: "Sam" or "SAM" signs in as "sam" (``user_for_login``),
one account per name in any case being what sign-up and the database allow."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth.backends import ModelBackend

from . import sql
from .models import GuardianConsent, Profile, User

#: Set on a request (``ask_about_consent``) by a log-in door that catches AwaitingConsent.
ASKS_ABOUT_CONSENT = "accounts_asks_about_consent"


class AwaitingConsent(Exception):
    """The password is right; the account opens once ``consent`` is given."""

    def __init__(self, consent: GuardianConsent) -> None:
        super().__init__("awaiting-consent")
        self.consent = consent


def user_for_login(username: str) -> User | None:
    """The account a username typed at a log-in door names, in any case ("Sam" is "sam").
    Names are stored in Unicode's compatibility form (``User.normalize_username``), so
    the typed one is put in it too. Should the database hold names differing only by
    case (made before sign-up compared them, or by the database's own case rules
    disagreeing with another's), the exact spelling wins and otherwise nobody does."""
    username = User.normalize_username(username)
    found = list(User._default_manager.filter(username__iexact=username)[:10])
    if len(found) == 1:
        return found[0]
    return next((user for user in found if user.username == username), None)


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
        if not isinstance(username, str) or password is None:
            return None
        user = user_for_login(username)
        if user is None:
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
        """The session's user with the profile, in hand-written SQL (accounts.sql): every
        signed-in page and socket asks it, and through the ORM it cost 0.8 ms of CPU (its
        query compiler), 0.25 ms so (docs/benchmarks-live.md, fifteenth round)."""
        rows = sql.fetch(_user_sql(), [user_id], _USER)
        if not rows:
            return None
        user, profile = rows[0]
        _PROFILE_OF_USER.set_cached_value(user, profile)  # None reads as no profile, no query
        return user if self.user_can_authenticate(user) else None


_USER = (sql.Shape(User, "u"), sql.Shape(Profile, "p"))
_PROFILE_OF_USER = User.profile.related  # the OneToOneRel, as select_related("profile") fills


@functools.cache
def _user_sql() -> str:
    return (f"SELECT {sql.select(_USER)} FROM {sql.table(User)} u"
            f" LEFT JOIN {sql.table(Profile)} p ON p.user_id = u.id WHERE u.id = %s")
