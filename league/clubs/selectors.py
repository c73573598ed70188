"""Reads for clubs and their members."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from accounts import players
from league.models import Club, ClubMembership, JoinRequest


def clubs_for_home() -> QuerySet[Club]:
    return Club.objects.order_by("name")


def clubs_with_members(clubs: Any, viewer: Any) -> list[Club]:
    """``clubs`` with ``shown`` (shown_members) and ``member_count``, its length: a
    count of all memberships said "11 members" above a list of 9 (closed accounts and
    children hidden from outsiders), and told outsiders that hidden children exist."""
    clubs = list(clubs)
    shown = shown_members(clubs, viewer)
    for club in clubs:
        club.shown = shown[club.pk]
        club.member_count = len(club.shown)
    return clubs


def members_shown_to(club: Club, viewer: Any) -> list[ClubMembership]:
    """The club's members as a viewer may see them listed (``shown_members``)."""
    return shown_members([club], viewer)[club.pk]


def shown_members(clubs: list[Club], viewer: Any) -> dict[int, list[ClubMembership]]:
    """Each club's members as a viewer may see them listed, by club id: active accounts;
    those opened with a guardian's consent only to fellow members (docs/accounts.md,
    "Finding players"). The club page and the API list them so, in three queries
    whatever the number of clubs."""
    ids = [club.pk for club in clubs]
    member_of = set()
    if viewer is not None and viewer.is_authenticated:
        member_of = set(ClubMembership.objects.filter(user=viewer.pk, club__in=ids).values_list("club_id", flat=True))
    consented = set(ClubMembership.objects.filter(club__in=ids, user__guardian_consent__isnull=False)
                    .values_list("pk", flat=True))
    shown: dict[int, list[ClubMembership]] = {club_id: [] for club_id in ids}
    for membership in (ClubMembership.objects.filter(club__in=ids, user__is_active=True)
                       .select_related("user__profile").order_by("role", "user__username")):
        if membership.club_id in member_of or membership.pk not in consented:
            shown[membership.club_id].append(membership)
    return shown



def clubs_of(person: Any, viewer: Any) -> list[ClubMembership]:
    """``person``'s memberships as ``viewer`` may see them on the player's page: the
    clubs whose page lists ``person`` to ``viewer`` (shown_members' rule), by club name."""
    if not person.is_active:
        return []
    memberships = list(ClubMembership.objects.filter(user=person.pk).select_related("club").order_by("club__name"))
    if not players.is_child(person) or (viewer is not None and viewer.pk == person.pk):
        return memberships
    shared = set()
    if viewer is not None and viewer.is_authenticated:
        shared = set(ClubMembership.objects.filter(user=viewer.pk).values_list("club_id", flat=True))
    return [membership for membership in memberships if membership.club_id in shared]


def join_request_of(club: Club, user: Any) -> JoinRequest | None:
    """``user``'s latest request to join ``club`` (services.ask_to_join), if any."""
    if not user.is_authenticated:
        return None
    return JoinRequest.objects.filter(club=club, user=user).order_by("-created_at", "-id").first()


def waiting_join_requests(club: Club) -> list[JoinRequest]:
    """The requests to join ``club`` its organisers have not answered, oldest first."""
    return list(JoinRequest.objects.filter(club=club, status=JoinRequest.Status.PENDING).select_related("user"))
