"""Writes for accounts. Views, API views and commands call these; nothing else writes."""

from __future__ import annotations

import contextlib
import logging
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from axes.utils import reset as reset_lockouts
from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Max, ProtectedError, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from rest_framework.authtoken.models import Token

from . import age, lookalikes, notices
from .broadcast import send_to_groups
from .errors import ServiceError
from .limits import client_ip  # the same client address as every abuse limit
from .models import AgeScreenAnswer, GuardianConsent, Profile, User, login_key

logger = logging.getLogger(__name__)

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


def validate_username(username: str) -> None:
    """The one rule for usernames, as the sign-up page, the API, the admin and
    register_player apply it: the user model's own field validators (letters, digits
    and @/./+/-/_, at least one letter or digit, 150 at most) on the name as it is
    stored. Raises Django's ValidationError, so forms and serializers can use it as is."""
    User._meta.get_field("username").clean(User.normalize_username(username), None)


def normalised_email(address: str) -> str:
    """An address as a mailbox: case-folded, quoting and escapes dropped ("kid"@x and
    kid@x are one mailbox), the domain in one spelling (IDNA: bücher.example and
    xn--bcher-kva.example are one), without a +tag (which most providers deliver to the
    same mailbox), and Gmail's dots dropped. Only for comparing."""
    local, at, domain = address.strip().casefold().rpartition("@")
    if not at:
        return address.strip().casefold()
    local = local.replace('"', "").replace("\\", "")
    with contextlib.suppress(UnicodeError):  # not a domain IDNA can spell: compared as typed
        domain = domain.rstrip(".").encode("idna").decode("ascii")
    local = local.split("+", 1)[0]
    if domain in ("gmail.com", "googlemail.com"):
        local, domain = local.replace(".", ""), "gmail.com"
    return f"{local}@{domain}"


# -- the age screen ---------------------------------------------------------------------
#
# The date of birth is asked neutrally (no hint of any cut-off), and the first answer
# that needs a guardian's consent is remembered under every key that names who gave
# it: their session, their browser (a signed cookie), their device (client address
# and user agent, briefly), the username and the e-mail tried. A later answer from any
# of those keys that would need no guardian is replaced by the first one, so typing
# another date or country, deleting a cookie or re-sending the API request does not
# open an account. Someone on a fresh device, with new names and a false date from
# the start, is not caught: no neutral screen can catch that (docs/security.md).
#
# The device key is the one strangers share (a family's computer, a club's tablet):
# an answer found through it alone holds for its hour but is passed on to no other key
# (a parent after their child is not marked for a year), and it is released when that
# sign-up's guardian consents.


@dataclass(frozen=True)
class AgeScreen:
    """Who is answering the age screen, as far as the server can tell: (kind, value)
    keys, each remembered for settings.AGE_SCREEN_SECONDS[kind]."""

    keys: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ScreenedAnswer:
    date_of_birth: date
    country: str
    decision: age.AccessDecision
    remembered: bool  # the first answer replaced the one given now
    #: When the last of this request's keys forgets the answer (None: nothing remembered):
    #: from then on this browser, device, username and e-mail may answer afresh.
    kept_until: datetime | None = None
    #: The first answer was found through the device key alone (maybe someone else's).
    device_only: bool = False
    #: (device_only) That answer's sign-up is waiting for its guardian, whose consent
    #: frees the device (_tie_device_to_consent).
    awaiting_guardian: bool = False


class GuardianConsentRequired(ServiceError):
    """The sign-up needs a guardian's details (code ``guardian-consent-required``): the
    next step, not an error. ``screened`` tells the page who is likely reading it (an
    answer held by the device alone may be someone else's)."""

    def __init__(self, message: str, screened: ScreenedAnswer | None = None) -> None:
        super().__init__("guardian-consent-required", message)
        self.screened = screened

    def __reduce__(self) -> tuple[type[ServiceError], tuple[str, str]]:  # pickled as a plain ServiceError
        return (ServiceError, (self.code, self.message))


def age_screen_for(request: Any, *, username: str = "", email: str = "", browser_id: str = "") -> AgeScreen:
    """The keys of a sign-up request (a page's or the API's). A page makes sure it has a
    session before asking, and passes its browser cookie's id."""
    keys = []
    session = getattr(request, "session", None)
    if session is not None and session.session_key:
        keys.append(("session", session.session_key))
    if browser_id:
        keys.append(("browser", browser_id))
    keys.append(("device", f"{client_ip(request) or ''}|{request.META.get('HTTP_USER_AGENT', '')}"))
    if username:
        keys.append(("username", User.normalize_username(username).casefold()))
    if email:
        keys.append(("email", normalised_email(email)))
    return AgeScreen(keys=tuple(keys))


def _screen_key(kind: str, value: str) -> str:
    return salted_hmac("accounts.age-screen", f"{kind}:{value}", algorithm="sha256").hexdigest()


def screen_age(*, screen: AgeScreen, date_of_birth: date, country: str, today: date | None = None) -> ScreenedAnswer:
    """Apply the age screen to an answer; see the comment above. Called outside the
    account's transaction, so a refusal raised after it does not undo what it remembered."""
    decision = check_service_access(date_of_birth=date_of_birth, country=country, today=today)
    now = timezone.now()
    keys = {_screen_key(kind, value): kind for kind, value in screen.keys}
    if keys:  # answers past their time are children's data kept for nothing
        AgeScreenAnswer.objects.filter(expires_at__lte=now).delete()
    live = AgeScreenAnswer.objects.filter(key__in=keys, expires_at__gt=now)
    first = live.order_by("answered_at", "pk").first()
    remembered = device_only = awaiting = False
    answered_at: datetime = now
    if first is not None and not decision.needs_guardian_consent:
        first_decision = check_service_access(
            date_of_birth=first.date_of_birth, country=first.country.code, today=today
        )
        if first_decision.needs_guardian_consent:  # still (a birthday may have passed since)
            date_of_birth, country, decision = first.date_of_birth, first.country.code, first_decision
            answered_at, remembered = first.answered_at, True
            device_only = set(live.values_list("kind", flat=True)) == {"device"}
            awaiting = device_only and live.filter(
                kind="device", consent__isnull=False, consent__granted_at__isnull=True,
                consent__revoked_at__isnull=True).exists()
    if decision.needs_guardian_consent and keys and not device_only:
        seconds = settings.AGE_SCREEN_SECONDS
        AgeScreenAnswer.objects.bulk_create(
            [
                AgeScreenAnswer(
                    key=key, kind=kind, date_of_birth=date_of_birth, country=country,
                    answered_at=answered_at, expires_at=now + timedelta(seconds=seconds[kind]),
                )
                for key, kind in keys.items()
            ],
            ignore_conflicts=True,  # a key already answered keeps its first answer
        )
        # A new answer needing a guardian from this device: no earlier sign-up's consent
        # may release the device while this one is unresolved.
        AgeScreenAnswer.objects.filter(key__in=keys, kind="device").update(consent=None)
    kept_until = None
    if remembered:  # the person is told until when (a mistyped year was a block of unknown length)
        kept_until = AgeScreenAnswer.objects.filter(key__in=keys, expires_at__gt=now).aggregate(
            until=Max("expires_at"))["until"]
    return ScreenedAnswer(date_of_birth, country, decision, remembered, kept_until, device_only, awaiting)


def _tie_device_to_consent(screen: AgeScreen, consent: GuardianConsent) -> None:
    """The device's answer is this pending sign-up's: the guardian's consent releases it."""
    devices = [_screen_key(kind, value) for kind, value in screen.keys if kind == "device"]
    AgeScreenAnswer.objects.filter(key__in=devices).update(consent=consent)


def consent_reason(screened: ScreenedAnswer, now: datetime | None = None) -> str:
    """Why a screened answer needs a guardian's consent, in words for the person signing up.
    A remembered answer says until when it is kept, and what to do meanwhile that needs
    no club: a guardian's consent, or the site's contact address (docs/security.md)."""
    reason = screened.decision.reason
    if not screened.remembered:
        return reason
    until = f"until {_moment_words(screened.kept_until, now)}" if screened.kept_until else "for a while"
    mistake = (
        "If the earlier date was yours and a mistake, a parent or guardian can still give their consent "
        "(their name and e-mail with the sign-up; the account opens when they confirm), or write to "
        f"{contact_address()}: the site's staff can set up your account with the right date."
    )
    if screened.device_only:
        # A shared computer: the reader is most likely not the child of that answer but the
        # next person (a parent after their child, a club's next member), who may be an
        # adult: spoken to as anyone signing up, with what frees the device; the guardian
        # route only for a date that was theirs. Paragraphs: the page shows each apart.
        held = (
            "An earlier sign-up on this device (the same network address and browser) gave a date of birth "
            f"that needs a parent's or guardian's consent, and this device keeps that answer {until}: until "
            "then, every sign-up from it is asked for a guardian, whatever date it gives. Nothing of yours "
            "is kept."
        )
        if screened.awaiting_guardian:
            free = (
                "If that was your child's sign-up and you are the parent or guardian we e-mailed: give your "
                "consent with the link in that e-mail. That frees this device at once, and you can then sign "
                "up here. If it was someone else's, at home or at a club, sign up again after that time."
            )
        else:
            free = "If that was someone else's sign-up, at home or at a club, sign up again after that time."
        return f"{held}\n\n{free}\n\n{mistake}"
    return (
        "An earlier sign-up from this browser or device, or with this username or e-mail, gave a date of birth "
        f"that needs a parent's or guardian's consent, and that answer is kept {until}: a different "
        f"date of birth or country is not taken before then. {mistake}"
    )


def _moment_words(moment: datetime, now: datetime | None = None) -> str:
    """A time to come in words: "about 40 minutes from now (07:02 UTC)" within the day,
    else its date ("30 December 2026")."""
    now = now or timezone.now()
    local = timezone.localtime(moment)
    left = moment - now
    if left > timedelta(hours=23):
        return _day(local)
    minutes = max(1, round(left.total_seconds() / 60))
    if minutes < 90:
        span = f"{minutes} minute{'s' if minutes != 1 else ''}"
    else:
        span = f"{round(minutes / 60)} hours"
    return f"about {span} from now ({local:%H:%M} {local.tzname()})"


def refuse_taken_username(username: str) -> None:
    """400 ``username-taken`` for a name an account has, in any case: sign-in matches
    "Sam" to "sam" (accounts.backends.user_for_login), so "Sam" is not a new name. A name
    differing only by case says so, and which one is taken (usernames are public)."""
    username = User.normalize_username(username)
    taken = User.objects.filter(username__iexact=username).values_list("username", flat=True).first()
    if taken is None:
        return
    if taken == username:
        raise ServiceError("username-taken", "That username is taken; please choose another.")
    raise ServiceError(
        "username-taken",
        f'That username is taken: usernames are the same in any case, and "{taken}" is another '
        "player's. Please choose another.",
    )


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
    screen: AgeScreen | None = None,
    today: date | None = None,
    consent_url_base: str = "",
    notify_guardian: bool = True,
) -> Registration:
    """Create a player account.

    Below the country's digital-consent age the account is created inactive and a
    guardian is asked to confirm by e-mail; without a guardian's details it is refused.
    Sign-ups from outside (the page, the API) pass their ``screen`` (age_screen_for):
    the age screen may then replace the date and country given (screen_age).
    """
    screened = screen_age(screen=screen or AgeScreen(), date_of_birth=date_of_birth, country=country, today=today)
    date_of_birth, country, decision = screened.date_of_birth, screened.country, screened.decision
    # The name first (the answer above is remembered already): a name that cannot be
    # had is the first thing to fix, whatever the age screen says.
    try:
        validate_username(username)
    except ValidationError as exc:
        raise ServiceError("invalid-username", " ".join(exc.messages)) from exc
    refuse_taken_username(username)
    if decision.needs_guardian_consent:
        reason = consent_reason(screened)
        if not (guardian_name and guardian_email):
            raise GuardianConsentRequired(reason, screened)
        if email and normalised_email(email) == normalised_email(guardian_email):
            raise ServiceError(
                "guardian-email-is-players",
                "The parent's or guardian's e-mail must be their own, not the one you sign up with.",
            )
    checked_display_name(display_name or username, user=None)
    registration = _create_player(
        username=username, password=password, email=email, display_name=display_name,
        date_of_birth=date_of_birth, country=country, active=not decision.needs_guardian_consent,
        guardian_name=guardian_name, guardian_email=guardian_email,
        consent_url_base=consent_url_base, notify_guardian=notify_guardian,
    )
    if registration.consent is not None and screen is not None:
        _tie_device_to_consent(screen, registration.consent)
    return registration


@transaction.atomic
def _create_player(
    *, username: str, password: str, email: str, display_name: str, date_of_birth: date, country: str,
    active: bool, guardian_name: str, guardian_email: str, consent_url_base: str, notify_guardian: bool,
) -> Registration:
    refuse_taken_username(username)
    try:
        validate_password(password, user=User(username=username, email=email))
    except ValidationError as exc:
        raise ServiceError("weak-password", " ".join(exc.messages)) from exc
    try:
        user = User.objects.create_user(username=username, password=password, email=email, is_active=active)
    except IntegrityError as exc:  # a concurrent sign-up took the name
        raise ServiceError("username-taken", "That username is taken; please choose another.") from exc
    Profile.objects.create(
        user=user, display_name=checked_display_name(display_name or username, user=user),
        date_of_birth=date_of_birth, country=country,
    )
    consent = None
    if not active:
        consent = GuardianConsent.objects.create(
            user=user, guardian_name=guardian_name, guardian_email=guardian_email
        )
        if notify_guardian:
            transaction.on_commit(lambda: _send_consent_request(consent, consent_url_base))
    return Registration(user=user, needs_guardian_consent=not active, consent=consent)


def consent_token(consent: GuardianConsent) -> str:
    return signing.dumps({"consent": consent.pk}, salt=CONSENT_SALT)


def contact_address() -> str:
    """Where a guardian writes to withdraw consent (docs/accounts.md): ``CONTACT_EMAIL``
    if the settings name one, else the address the platform's mail comes from."""
    return str(settings.CONTACT_EMAIL or settings.DEFAULT_FROM_EMAIL)


def consent_link_expires(consent: GuardianConsent) -> datetime:
    """When the link e-mailed at ``requested_at`` stops working (CONSENT_MAX_AGE)."""
    return consent.requested_at + timedelta(seconds=CONSENT_MAX_AGE)


def _day(moment: datetime) -> str:
    return f"{moment.day} {moment:%B %Y}"


def awaiting_consent_message(consent: GuardianConsent, now: datetime | None = None) -> str:
    """What the log-in page and API say to a player whose username and password are right
    but whose account waits for their guardian (accounts.backends.AwaitingConsent)."""
    sent = timezone.localtime(consent.requested_at)
    expires = timezone.localtime(consent_link_expires(consent))
    message = (
        "Your account is waiting for your parent's or guardian's consent: we e-mailed "
        f"{consent.guardian_name} a link on {_day(sent)}. Your account opens as soon as they confirm."
    )
    if expires <= (now or timezone.now()):
        message += (
            f" That link stopped working on {_day(expires)}: write to {contact_address()} "
            "and we will send a new one."
        )
    else:
        message += f" The link works until {_day(expires)}; ask them to check their inbox."
    return message


def _send_consent_request(consent: GuardianConsent, url_base: str) -> None:
    link = url_base.rstrip("/") + reverse("accounts:guardian-consent", args=[consent_token(consent)])
    send_mail(
        subject=f"Please confirm {consent.user.name}'s account",
        message=(
            f"Hello {consent.guardian_name},\n\n{consent.user.name} would like to play Tic Tac Toe on "
            f"our club platform. Because of their age we need your consent. To give it, or to refuse "
            f"it, open:\n\n{link}\n\n"
            "If you did not expect this message, ignore it: the account stays closed."
        ),
        from_email=settings.DEFAULT_FROM_EMAIL,
        recipient_list=[consent.guardian_email],
    )


def consent_for_token(*, token: str) -> GuardianConsent:
    try:
        data = signing.loads(token, salt=CONSENT_SALT, max_age=CONSENT_MAX_AGE)
        pk = data["consent"]
        if isinstance(pk, bool) or not isinstance(pk, int):  # text was a 500, null "the account was deleted"
            raise TypeError(pk)
        return GuardianConsent.objects.select_related("user__profile").get(pk=pk)
    except GuardianConsent.DoesNotExist as exc:  # a true link whose account is gone: declined, or deleted
        raise ServiceError(
            "invalid-consent-link",
            "This link opens nothing now: the account it was for has been deleted, with everything it held "
            "(as it is when a parent or guardian answers \"I do not consent\"). Nothing more is needed; "
            f"questions to {contact_address()}.",
        ) from exc
    except (signing.BadSignature, KeyError, TypeError) as exc:
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
        # The child's own keys (session, browser, names) stay; the shared device is free
        # for the next person (docs/security.md, "The age gate").
        AgeScreenAnswer.objects.filter(consent=consent, kind="device").delete()
        notices.notify(recipient=consent.user_id, kind=notices.Kind.GUARDIAN_CONSENT,
                       cause=f"guardian-consent:{consent.pk}",
                       message=f"{consent.guardian_name} gave their consent: your account is open. Welcome!",
                       url="/play/")
    return consent


@transaction.atomic
def decline_guardian_consent(*, token: str) -> GuardianConsent:
    """The guardian says no ("I do not consent"): the account waiting for them is deleted
    with everything it holds (profile, notices, tokens), since nothing may be done with a
    child's data without that consent; its username becomes free again. The age screen's
    remembered answers are not the account's and stay (docs/accounts.md). An account
    already opened is not deleted here: withdrawing a given consent is
    withdraw_guardian_consent, which staff run. Returns the (deleted) consent, whose
    names the page still shows."""
    consent = consent_for_token(token=token)
    consent = GuardianConsent.objects.select_for_update(of=("self",)).select_related("user__profile").get(pk=consent.pk)
    if consent.granted_at is not None:
        raise ServiceError(
            "consent-already-given",
            f"You already gave your consent. To withdraw it, write to {contact_address()}.",
        )
    if consent.revoked_at is not None:
        raise ServiceError("consent-revoked", "This consent was withdrawn; the account stays closed.")
    user = consent.user
    try:
        with transaction.atomic():
            user.delete()
    except ProtectedError:  # something of the account's must stay (a seat in a game): closed for good
        logger.warning("declined consent %s: account %s kept closed, not deleted", consent.pk, user.pk)
        withdraw_guardian_consent(consent=consent)
    return consent


@transaction.atomic
def withdraw_guardian_consent(*, consent: GuardianConsent) -> GuardianConsent:
    """Consent withdrawn (the guardian wrote to us; the admin's action): the account
    closes, its sessions and API tokens stop working, and the link opens nothing again."""
    now = timezone.now()
    GuardianConsent.objects.filter(pk=consent.pk, revoked_at__isnull=True).update(revoked_at=now)
    User.objects.filter(pk=consent.user_id).update(is_active=False)
    Token.objects.filter(user_id=consent.user_id).delete()
    close_account_sockets(user_id=consent.user_id)
    consent.revoked_at = consent.revoked_at or now
    return consent


def close_account_sockets(*, user_id: int) -> None:
    """Close the account's open sockets (game and notifications) once the transaction
    that closed it commits: a page or token is refused from then on, but a socket keeps
    the user it signed in with at connect (docs/security.md, "Closing an account")."""
    # Imported here: realtime imports Channels' consumer stack, which services need not load.
    from .realtime import ACCOUNT_CLOSED_MESSAGE, account_group, user_group

    message = {"type": "account.closed", "message": ACCOUNT_CLOSED_MESSAGE}
    transaction.on_commit(lambda: send_to_groups([(user_group(user_id), message), (account_group(user_id), message)]))


def send_consent_request_again(*, consent: GuardianConsent, url_base: str) -> None:
    """A new link (another 14 days) for a consent still waiting (the admin's action)."""
    if consent.granted_at is not None or consent.revoked_at is not None:
        raise ServiceError("consent-not-pending", "This consent is not waiting for an answer.")
    GuardianConsent.objects.filter(pk=consent.pk).update(requested_at=timezone.now())
    consent.refresh_from_db()
    _send_consent_request(consent, url_base)


def checked_display_name(name: str, *, user: User | None) -> str:
    """``name`` as stored (NFKC, single spaces, at most 60 characters), or refused when
    it is empty or holds invisible characters (control, format, or a letter that draws
    nothing: accounts.lookalikes.DRAWS_NOTHING), mixes scripts'
    look-alike letters (accounts.lookalikes), or is another player's username or display
    name in any case, also once variation selectors are set aside (``as_seen``): a name
    others see must not pass one player off as another
    (docs/accounts.md, "Names")."""
    name = " ".join(unicodedata.normalize("NFKC", name).split())[:60]
    if not name:
        raise ServiceError("invalid-display-name", "A display name cannot be empty.")
    hidden = lookalikes.hidden_characters(name)
    if hidden:
        raise ServiceError("display-name-invisible", f"A display name cannot hold invisible or control characters "
                                                     f"(here U+{ord(hidden[0]):04X}): letters, digits, spaces and "
                                                     "punctuation only.")
    if not any(unicodedata.category(char)[0] in "LNPS" for char in name):
        raise ServiceError("invalid-display-name", "A display name needs at least one letter or digit.")
    if lookalikes.look_alike(name):
        raise ServiceError("display-name-look-alike", f"{name!r} {lookalikes.MIXED_SCRIPTS}")
    seen = lookalikes.as_seen(name)  # "Sam" and "Sam" + U+FE0F read alike
    others_named = (Q(username__iexact=name) | Q(profile__display_name__iexact=name)
                    | Q(username__iexact=seen) | Q(profile__display_name__iexact=seen))
    others = User.objects.filter(others_named)
    if (others.exclude(pk=user.pk) if user else others).exists():
        raise ServiceError("display-name-taken",
                           f"{name!r} is another player's name; please choose a name of your own.")
    return name


@transaction.atomic
def update_profile(*, user: User, display_name: str | None = None, country: str | None = None) -> Profile:
    """Change what a player may change. The date of birth is fixed after sign-up
    (otherwise the age rules could be dodged); staff correct it in the admin."""
    profile, _ = Profile.objects.select_for_update().get_or_create(
        user=user, defaults={"display_name": user.username}
    )
    if display_name is not None:
        profile.display_name = checked_display_name(display_name, user=user)
    if country is not None and country != profile.country:
        _check_country_change(user=user, profile=profile, country=country)
        profile.country = country
    profile.save()
    return profile


@transaction.atomic
def set_email(*, user: User, email: str) -> User:
    """Change (or, with "", remove) the account's e-mail address: where notices and
    password-reset links go. The page asks for the current password first
    (accounts.forms.EmailForm). The old address is told, so a change made by someone
    else is seen. A player's own address may not be their guardian's (as at sign-up)."""
    email = email.strip()
    consent = GuardianConsent.objects.filter(user=user).first()
    if email and consent is not None and normalised_email(email) == normalised_email(consent.guardian_email):
        raise ServiceError("guardian-email-is-players",
                           "That is your guardian's address; give your own, or leave it empty.")
    old = User.objects.select_for_update().values_list("email", flat=True).get(pk=user.pk)
    User.objects.filter(pk=user.pk).update(email=email)
    user.email = email
    if old and normalised_email(old) != normalised_email(email):
        transaction.on_commit(lambda: _tell_old_address(user, old, email))
    return user


def _tell_old_address(user: User, old: str, new: str) -> None:
    now = f"changed to {new}" if new else "removed"
    try:
        send_mail(
            subject="Your e-mail address was changed",
            message=(f"The e-mail address of the Tic Tac Toe League account \"{user.get_username()}\" was {now}.\n\n"
                     "If you did not do this, ask your club's organiser for help at once."),
            from_email=settings.DEFAULT_FROM_EMAIL, recipient_list=[old],
        )
    except Exception:  # SMTP and socket errors alike: the change stands
        logger.exception("e-mail change notice for user %s not sent", user.pk)


def password_changed(*, user: User) -> None:
    """After a new password (changed, or reset from an e-mailed link): API tokens issued
    under the old one stop working, and a log-in lock-out of this username is lifted
    (whoever reset it holds the account's e-mail). Django itself ends the other
    browser sessions: their session hash no longer matches."""
    Token.objects.filter(user=user).delete()
    reset_lockouts(username=login_key(user.get_username()))  # as axes counts it (accounts.limits)


def _check_country_change(*, user: User, profile: Profile, country: str) -> None:
    """A move to a country whose digital-consent age the player is under needs a
    guardian's consent they already have: otherwise changing the country after sign-up
    would step around the age gate (docs/accounts.md)."""
    if profile.date_of_birth is None:
        return
    decision = check_service_access(date_of_birth=profile.date_of_birth, country=country)
    consent = GuardianConsent.objects.filter(user=user).first()
    if decision.needs_guardian_consent and not (consent and consent.is_granted):
        raise ServiceError(
            "country-needs-consent",
            f"{decision.reason} Until then your country stays as it is; your club can change it for you.",
        )


def play_eligibility(*, user: User, today: date | None = None, own: bool = True) -> age.PlayDecision:
    """May this user be entered in play (seated in a game or a tournament)?

    ``own``: the user asks for themselves. Otherwise someone else does (a challenger, an
    organiser entering them), and the reason speaks of the user, not to the asker: "Add
    your date of birth" told a challenger to fix their own profile."""
    if not user.is_active:  # consent pending or deactivated: closed, to play as to sign in
        return age.PlayDecision(False, reason="This account is closed: it plays once it is open again.")
    profile = getattr(user, "profile", None)
    if profile is None or profile.date_of_birth is None:
        return age.PlayDecision(False, reason="Add your date of birth to your profile before playing." if own else
                                "Their profile has no date of birth yet: they add it before they can play.")
    return age.play_eligibility(profile.date_of_birth, today or timezone.localdate())
