"""Writes for clubs and their memberships (ratings and competitions have their own services)."""

from __future__ import annotations

from django.db import transaction
from django.utils.text import slugify

from accounts.models import User
from league.models import Club, ClubMembership


@transaction.atomic
def ensure_club(*, name: str, country: str = "", description: str = "", own_rating_list: bool = False) -> Club:
    """The club of this name, created if missing; ``own_rating_list`` turns its own
    rating list on (never off: turning a list off is an admin's decision)."""
    club, _ = Club.objects.get_or_create(
        slug=slugify(name), defaults={"name": name, "country": country, "description": description,
                                      "own_rating_list": own_rating_list}
    )
    if own_rating_list and not club.own_rating_list:
        club.own_rating_list = True
        club.save(update_fields=["own_rating_list"])
    return club


@transaction.atomic
def set_membership(*, club: Club, user: User, role: str) -> ClubMembership:
    if role not in ClubMembership.Role.values:
        raise ValueError(f"Unknown club role {role!r}.")
    membership, _ = ClubMembership.objects.update_or_create(club=club, user=user, defaults={"role": role})
    return membership
