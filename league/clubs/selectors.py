"""Reads for clubs and their members."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from league.models import Club, ClubMembership


def clubs_for_home() -> QuerySet[Club]:
    return Club.objects.annotate(member_count=Count("memberships")).order_by("name")


def club_members(club: Club) -> QuerySet[ClubMembership]:
    return club.memberships.select_related("user__profile").order_by("role", "user__username")
