"""Writes for clubs and their memberships (ratings and competitions have their own services)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Concat
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify

from accounts.errors import ServiceError
from accounts.models import Notice, User
from accounts.notices import Kind, NoticeSpec, notify, notify_many
from league.competitions import audit
from league.models import ORGANISER_ROLES, Club, ClubMembership, JoinRequest

#: After a decline, how long before the same person may ask that club again (so a
#: button cannot fill the organisers' notices).
ASK_AGAIN_AFTER = timedelta(days=7)


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



@transaction.atomic
def ask_to_join(*, club: Club, user: User, now: datetime | None = None) -> tuple[JoinRequest, bool]:
    """Ask ``club``'s owners and organisers to add ``user`` as a member: the request, and
    whether it is new (asking again while it waits sends nothing more)."""
    now = now or timezone.now()
    list(User.objects.select_for_update(no_key=True).filter(pk=user.pk).values_list("pk", flat=True))  # one at a time
    if ClubMembership.objects.filter(club=club, user=user).exists():
        raise ServiceError("already-member", f"You are already a member of {club.name}.")
    waiting = JoinRequest.objects.filter(club=club, user=user, status=JoinRequest.Status.PENDING).first()
    if waiting is not None:
        return waiting, False
    declined = JoinRequest.objects.filter(club=club, user=user, status=JoinRequest.Status.DECLINED,
                                          decided_at__gt=now - ASK_AGAIN_AFTER).order_by("-decided_at").first()
    if declined is not None and declined.decided_at is not None:
        again = declined.decided_at + ASK_AGAIN_AFTER
        raise ServiceError("join-declined", f"The organisers of {club.name} declined your request on "
                                            f"{declined.decided_at:%-d %B}; you may ask again from {again:%-d %B}.")
    keepers = list(ClubMembership.objects.filter(club=club, role__in=ORGANISER_ROLES).values_list("user_id", flat=True))
    if not keepers:
        raise ServiceError("no-organiser", f"{club.name} has no organiser to ask yet.")
    request = JoinRequest.objects.create(club=club, user=user, created_at=now)
    url = reverse("competitions:club", args=[club.slug]) + "#join-requests"
    notify_many([NoticeSpec(keeper, Kind.JOIN_REQUEST, f"join-request:{request.pk}",
                            f"{user.name} ({user.username}) asks to join {club.name}: add them or decline on the "
                            "club's page.", url, {"club": club.pk, "user": user.pk}) for keeper in keepers])
    return request, True


@transaction.atomic
def decide_join_request(*, request_id: int, by: User, accept: bool, now: datetime | None = None) -> JoinRequest:
    """An owner or organiser adds the person who asked as a member, or declines; the
    person is told either way."""
    now = now or timezone.now()
    request = JoinRequest.objects.select_for_update().select_related("club", "user").filter(pk=request_id).first()
    if request is None or not by.has_perm("league.organise_club", request.club):
        raise ServiceError("not-found", "There is no such request to join a club of yours.")
    if request.status != JoinRequest.Status.PENDING:
        raise ServiceError("decided", f"This request was answered already: {request.get_status_display().lower()}.")
    club, user = request.club, request.user
    request.status = JoinRequest.Status.ACCEPTED if accept else JoinRequest.Status.DECLINED
    request.decided_at, request.decided_by = now, by
    request.save(update_fields=["status", "decided_at", "decided_by"])
    if accept:
        ClubMembership.objects.get_or_create(club=club, user=user, defaults={"role": ClubMembership.Role.MEMBER})
        told = f"You are now a member of {club.name}."
    else:
        told = f"The organisers of {club.name} declined your request to join."
    notify(recipient=user, kind=Kind.JOIN_REQUEST, cause=f"join-request:{request.pk}:answer", message=told,
           url=reverse("competitions:club", args=[club.slug]), club=club.pk)
    # The other organisers' notices of the request say it was answered, and by whom
    # (they read "add them or decline" after it was done: an outside organiser).
    answered = f" Answered: {by.name} {'added them' if accept else 'declined'}."
    Notice.objects.filter(cause=f"join-request:{request.pk}", kind=Kind.JOIN_REQUEST).update(
        message=Concat(F("message"), Value(answered)))
    audit.record(actor=by, action="club.member-add" if accept else "club.join-decline", target=request, club=club,
                 details={"user": user.pk})
    return request
