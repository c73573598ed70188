from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models
from django_countries.fields import CountryField


class User(AbstractUser):
    """The login. Custom from the first migration so it can grow without pain."""

    @property
    def name(self) -> str:
        profile = getattr(self, "profile", None)
        return profile.display_name if profile and profile.display_name else self.username


class Profile(models.Model):
    """What the platform knows of a person as a player."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(max_length=60)
    date_of_birth = models.DateField(null=True, blank=True)
    country = CountryField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

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
