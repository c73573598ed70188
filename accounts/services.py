"""Writes for accounts. Views, API views and commands call these; nothing else writes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from . import age
from .errors import ServiceError
from .models import GuardianConsent, Profile, User

CONSENT_SALT = "accounts.guardian-consent"
CONSENT_MAX_AGE = 60 * 60 * 24 * 14  # a guardian's link works for two weeks


@dataclass(frozen=True)
class Registration:
    user: User
    needs_guardian_consent: bool
    consent: GuardianConsent | None = None


def check_service_access(*, date_of_birth: date, country: str, today: date | None = None) -> age.AccessDecision:
    today = today or timezone.localdate()
    if date_of_birth > today:
        raise ServiceError("invalid-date-of-birth", "A date of birth cannot be in the future.")
    if today.year - date_of_birth.year > 130:
        raise ServiceError("invalid-date-of-birth", "Please check the year of birth.")
    return age.service_access(date_of_birth, country, today)


@transaction.atomic
def register_player(
    *,
    username: str,
    password: str,
    email: str = "",
    display_name: str = "",
    date_of_birth: date,
    country: str,
    guardian_name: str = "",
    guardian_email: str = "",
    today: date | None = None,
    consent_url_base: str = "",
    notify_guardian: bool = True,
) -> Registration:
    """Create a player account.

    Below the country's digital-consent age the account is created inactive and a
    guardian is asked to confirm by e-mail; without a guardian's details it is refused.
    """
    decision = check_service_access(date_of_birth=date_of_birth, country=country, today=today)
    if decision.needs_guardian_consent and not (guardian_name and guardian_email):
        raise ServiceError("guardian-consent-required", decision.reason)
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError("username-taken", "That username is taken; please choose another.")
    try:
        validate_password(password, user=User(username=username, email=email))
    except ValidationError as exc:
        raise ServiceError("weak-password", " ".join(exc.messages)) from exc
    try:
        user = User.objects.create_user(
            username=username, password=password, email=email, is_active=not decision.needs_guardian_consent
        )
    except IntegrityError as exc:  # a concurrent sign-up took the name
        raise ServiceError("username-taken", "That username is taken; please choose another.") from exc
    Profile.objects.create(
        user=user, display_name=display_name or username, date_of_birth=date_of_birth, country=country
    )
    consent = None
    if decision.needs_guardian_consent:
        consent = GuardianConsent.objects.create(
            user=user, guardian_name=guardian_name, guardian_email=guardian_email
        )
        if notify_guardian:
            transaction.on_commit(lambda: _send_consent_request(consent, consent_url_base))
    return Registration(user=user, needs_guardian_consent=decision.needs_guardian_consent, consent=consent)


def consent_token(consent: GuardianConsent) -> str:
    return signing.dumps({"consent": consent.pk}, salt=CONSENT_SALT)


def _send_consent_request(consent: GuardianConsent, url_base: str) -> None:
    link = url_base.rstrip("/") + reverse("accounts:guardian-consent", args=[consent_token(consent)])
    send_mail(
        subject=f"Please confirm {consent.user.name}'s account",
        message=(
            f"Hello {consent.guardian_name},\n\n{consent.user.name} would like to play Tic Tac Toe on "
            f"our club platform. Because of their age we need your consent. To give it, open:\n\n{link}\n\n"
            "If you did not expect this message, ignore it: the account stays closed."
        ),
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=[consent.guardian_email],
    )


def consent_for_token(*, token: str) -> GuardianConsent:
    try:
        data = signing.loads(token, salt=CONSENT_SALT, max_age=CONSENT_MAX_AGE)
        return GuardianConsent.objects.select_related("user__profile").get(pk=data["consent"])
    except (signing.BadSignature, GuardianConsent.DoesNotExist, KeyError, TypeError) as exc:
        raise ServiceError("invalid-consent-link", "This consent link is not valid or has expired.") from exc


@transaction.atomic
def grant_guardian_consent(*, token: str) -> GuardianConsent:
    consent = consent_for_token(token=token)
    consent = GuardianConsent.objects.select_for_update().get(pk=consent.pk)
    if consent.revoked_at is not None:
        raise ServiceError("consent-revoked", "This consent was withdrawn; the account stays closed.")
    if consent.granted_at is None:
        consent.granted_at = timezone.now()
        consent.save(update_fields=["granted_at"])
        User.objects.filter(pk=consent.user_id).update(is_active=True)
    return consent


@transaction.atomic
def update_profile(*, user: User, display_name: str | None = None, country: str | None = None) -> Profile:
    """Change what a player may change. The date of birth is fixed after sign-up
    (otherwise the age rules could be dodged); staff correct it in the admin."""
    profile, _ = Profile.objects.select_for_update().get_or_create(
        user=user, defaults={"display_name": user.username}
    )
    if display_name is not None:
        display_name = display_name.strip()
        if not display_name:
            raise ServiceError("invalid-display-name", "A display name cannot be empty.")
        profile.display_name = display_name[:60]
    if country is not None:
        profile.country = country
    profile.save()
    return profile


def play_eligibility(*, user: User, today: date | None = None) -> age.PlayDecision:
    """May this user be entered in play (seated in a game or a tournament)?"""
    profile = getattr(user, "profile", None)
    if profile is None or profile.date_of_birth is None:
        return age.PlayDecision(False, reason="Add your date of birth to your profile before playing.")
    return age.play_eligibility(profile.date_of_birth, today or timezone.localdate())
