"""Writes for clubs and their memberships (ratings and competitions have their own services)."""

from __future__ import annotations

from django.db import transaction
from django.utils.text import slugify

from accounts.models import User
from league.models import Club, ClubMembership


@transaction.atomic
def ensure_club(*, name: str, country: str = "", description: str = "") -> Club:
    club, _ = Club.objects.get_or_create(
        slug=slugify(name), defaults={"name": name, "country": country, "description": description}
    )
    return club


@transaction.atomic
def set_membership(*, club: Club, user: User, role: str) -> ClubMembership:
    if role not in ClubMembership.Role.values:
        raise ValueError(f"Unknown club role {role!r}.")
    membership, _ = ClubMembership.objects.update_or_create(club=club, user=user, defaults={"role": role})
    return membership
