from __future__ import annotations

from django.conf import settings
from django.db import models
from django_countries.fields import CountryField


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=120, unique=True)
    country = CountryField(blank=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ClubMembership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        ORGANISER = "organiser", "Organiser"
        ARBITER = "arbiter", "Arbiter"
        MEMBER = "member", "Member"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "user"], name="one_membership_per_club")]
        ordering = ["club", "role", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} in {self.club} ({self.role})"
