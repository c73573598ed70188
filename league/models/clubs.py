"""Clubs and their members' roles."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django_countries.fields import CountryField

from .ratings import RatingSystem


class Club(models.Model):
    name = models.CharField(max_length=120, unique=True)
    slug = models.SlugField(max_length=120, unique=True)
    country = CountryField(blank=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Ratings (docs/ratings.md): a club may keep its own list, rated by its own system.
    rating_system = models.CharField(max_length=8, choices=RatingSystem.choices, default=RatingSystem.ELO)
    own_rating_list = models.BooleanField(
        default=False, help_text="Keep a rating list of this club's own, from rated games between its members."
    )

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


#: The club roles that run the club's events (and open its organiser pages).
ORGANISER_ROLES = (ClubMembership.Role.OWNER, ClubMembership.Role.ORGANISER)


class JoinRequest(models.Model):
    """Someone asking to become a member of a club; its owners and organisers decide
    (league.clubs.services). One open request per person and club."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting"
        ACCEPTED = "accepted", "Added as a member"
        DECLINED = "declined", "Declined"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="join_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["club", "user"], condition=models.Q(status="pending"),
                                               name="one_open_join_request")]

    def __str__(self) -> str:
        return f"{self.user} asks to join {self.club} ({self.status})"
