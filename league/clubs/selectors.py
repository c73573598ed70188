"""Reads for clubs and their members."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet

from league.models import Club, ClubMembership


def clubs_for_home() -> QuerySet[Club]:
    return Club.objects.annotate(member_count=Count("memberships")).order_by("name")


def club_members(club: Club) -> QuerySet[ClubMembership]:
    return club.memberships.select_related("user__profile").order_by("role", "user__username")


def members_shown_to(club: Club, viewer: Any) -> list[ClubMembership]:
    """The club's members as a viewer may see them listed: active accounts; those
    opened with a guardian's consent only to fellow members (docs/accounts.md,
    "Finding players")."""
    members = club_members(club).filter(user__is_active=True).select_related("user__guardian_consent")
    is_member = viewer is not None and viewer.is_authenticated and club.memberships.filter(user=viewer.pk).exists()
    if not is_member:
        members = members.filter(user__guardian_consent__isnull=True)
    return list(members)
