from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.deconstruct import deconstructible
from django_countries.fields import CountryField

from . import lookalikes


@deconstructible
class UsernameValidator(UnicodeUsernameValidator):
    """The one rule for usernames: the sign-up page, the API, the admin and the service
    all use it (through the field, or accounts.services.validate_username).

    Letters, digits and @/./+/-/_ as Django's own rule, so a name is always one URL path
    segment (player pages, calendars); and at least one letter or digit, since "." and
    ".." would be read as steps in a path. Not mixing scripts' look-alike letters
    (accounts.lookalikes).
    """

    regex = r"^(?=.*[^\W_])[\w.@+-]+\Z"
    message = (
        "Enter a valid username: letters, digits and @/./+/-/_ only, with at least one letter or digit."
    )

    def __call__(self, value: str) -> None:
        super().__call__(value)
        blank = lookalikes.draws_nothing(str(value))
        if blank:  # \w takes the Hangul fillers (letters to Unicode), which show as nothing
            raise ValidationError(f"This username holds a character that shows as nothing (U+{ord(blank[0]):04X}): "
                                  "letters, digits and @/./+/-/_ only.", code="invalid")
        if lookalikes.look_alike(str(value)):  # "organiser" spelt with a Cyrillic "o" (U+043E)
            raise ValidationError(f"This username {lookalikes.MIXED_SCRIPTS}", code="invalid")


class User(AbstractUser):
    """The login. Custom from the first migration so it can grow without pain."""

    username_validator = UsernameValidator()
    username = models.CharField(
        "username",
        max_length=150,
        unique=True,
        help_text="Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only.",
        validators=[username_validator],
        error_messages={"unique": "A user with that username already exists."},
    )

    class Meta:
        verbose_name = "user"  # AbstractUser's (its Meta is not one mypy's stubs can subclass)
        verbose_name_plural = "users"
        constraints = [
            # One account per name in any case: sign-in finds "sam" when "Sam" is typed
            # (accounts.backends), so "Sam" cannot be a second account. The services check
            # first, with a sentence; this holds against two sign-ups at the same instant.
            models.UniqueConstraint(
                Lower("username"), name="accounts_user_username_any_case",
                violation_error_message="A user with that username, in some other case, already exists.",
            ),
        ]

    @property
    def name(self) -> str:
        profile = getattr(self, "profile", None)
        return profile.display_name if profile and profile.display_name else self.username


def login_key(username: str) -> str:
    """A username as sign-in compares it, in Unicode's compatibility form (as usernames are
    stored: ``User.normalize_username``) and case-folded: "Sam", "SAM" and "sam" are one.
    The failed-login lockout counts under it (accounts.limits.axes_username)."""
    return User.normalize_username(username).casefold()


def default_email_notices() -> list[str]:
    """What a player away from the site would miss most: someone waiting on them."""
    return ["challenge-received", "pairing", "your-turn", "guardian-consent", "organising"]


class Profile(models.Model):
    """What the platform knows of a person as a player."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=60)
    date_of_birth = models.DateField(null=True, blank=True)
    country = CountryField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The notice kinds (Notice.Kind values) this player also wants by e-mail.
    email_notices = models.JSONField(default=default_email_notices, blank=True)

    class Meta:
        ordering = ["display_name"]

    def __str__(self) -> str:
        return self.display_name


class GuardianConsent(models.Model):
    """A parent's or guardian's consent for a person under the digital-consent age."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="guardian_consent")
    guardian_name = models.CharField(max_length=120)
    guardian_email = models.EmailField()
    requested_at = models.DateTimeField(auto_now_add=True)
    granted_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "guardian consent"

    def __str__(self) -> str:
        state = "granted" if self.is_granted else "pending" if self.revoked_at is None else "revoked"
        return f"{self.guardian_name} for {self.user} ({state})"

    @property
    def is_granted(self) -> bool:
        return self.granted_at is not None and self.revoked_at is None


class AgeScreenAnswer(models.Model):
    """An answer to the sign-up age screen that needed a guardian's consent, remembered
    under one key naming who gave it (their session, browser, device, username or
    e-mail) until ``expires_at``: a later answer from the same key that would need no
    guardian is replaced by this one (accounts.services.screen_age). One row per key;
    the key is an HMAC, so no address or IP is stored in clear."""

    key = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=16)
    date_of_birth = models.DateField()
    country = CountryField()
    answered_at = models.DateTimeField()
    expires_at = models.DateTimeField(db_index=True)
    #: A device's answer whose sign-up then asked this guardian: released when they
    #: consent, so the next person on a shared computer is not held (screen_age).
    consent = models.ForeignKey(GuardianConsent, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")

    class Meta:
        verbose_name = "age screen answer"

    def __str__(self) -> str:
        return f"{self.kind} answer of {self.answered_at:%Y-%m-%d %H:%M}"


class IdempotencyKey(models.Model):
    """A client's ``Idempotency-Key`` on a write (accounts/idempotency.py): the request it
    came with (a sha256 fingerprint) and, once answered, the answer to replay. Scoped
    per user; kept IDEMPOTENCY_KEY_HOURS (24 h), then swept."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64, help_text="sha256 of the method, path and body.")
    status_code = models.PositiveSmallIntegerField(null=True, help_text="Empty while the request is in progress.")
    response = models.JSONField(null=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    claimed_at = models.DateTimeField()

    class Meta:
        verbose_name = "idempotency key"
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_per_user")]

    def __str__(self) -> str:
        return f"{self.key} ({self.status_code or 'in progress'})"


class Notice(models.Model):
    """What must reach a person (accounts/notices.py writes every one): stored in the
    transaction of what caused it, once per (recipient, cause); the live push and the
    e-mail are only ways of telling them (docs/accounts.md, "Notices")."""

    class Kind(models.TextChoices):
        # Labels short: the inbox shows them above each notice, the profile as choices.
        CHALLENGE_RECEIVED = "challenge-received", "Challenge received"
        CHALLENGE_ACCEPTED = "challenge-accepted", "Challenge accepted"
        CHALLENGE_DECLINED = "challenge-declined", "Challenge declined"
        GAME_STARTED = "game-started", "Next game of a match"
        GAME_ENDED = "game-ended", "Game over"
        YOUR_TURN = "your-turn", "Your turn (correspondence games)"
        PAIRING = "pairing", "Pairing"
        ROUND_STARTED = "round-started", "Round started (a bye or a forfeit)"
        ARENA_PAUSED = "arena-paused", "Paused in an arena"
        TOURNAMENT_FINISHED = "tournament-finished", "Tournament over"
        MODERATION = "moderation", "Moderation"
        # A club's organisers: a round that cannot be paired, a stage waiting on its start.
        ORGANISING = "organising", "Your club's events"
        GUARDIAN_CONSENT = "guardian-consent", "Guardian's consent"
        JOIN_REQUEST = "join-request", "Joining a club"

    recipient = models.ForeignKey(User, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=24, choices=Kind.choices)
    # What caused it, unique per recipient: a retried task writes the same key again.
    cause = models.CharField(max_length=120)
    message = models.CharField(max_length=500)
    url = models.CharField(max_length=200, blank=True, help_text="A path on this site, or empty.")
    data = models.JSONField(default=dict, blank=True, help_text="What it is about: game, section, round, board...")
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    email_wanted = models.BooleanField(default=False, help_text="The recipient asked for this kind by e-mail.")
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["recipient", "cause"], name="one_notice_per_cause")]
        indexes = [
            models.Index(fields=["recipient", "-created_at"], name="notice_inbox"),
            models.Index(fields=["recipient"], condition=models.Q(read_at__isnull=True), name="notice_unread"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.recipient}: {self.message[:60]}"

    @property
    def is_read(self) -> bool:
        return self.read_at is not None


class Presence(models.Model):
    """A signed-in person's open notifications socket (every signed-in page opens one):
    one row per socket, written and deleted by accounts/presence.py. Someone with a row
    is online (docs/accounts.md, "Who is online")."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=200, unique=True)
    connected_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} online"
