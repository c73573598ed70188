"""Club pages, mounted at /clubs/ by config/urls.py: the clubs and one club with its
leagues, tournaments and members (who is online, a challenge for each)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts import presence
from accounts.errors import ServiceError
from accounts.http import PlayerRequest
from league.clubs import selectors as club_selectors
from league.clubs import services as club_services
from league.competitions import event_selectors
from league.models import Club


def clubs(request: HttpRequest) -> HttpResponse:
    return render(request, "league/clubs.html", {
        "clubs": event_selectors.clubs_with_events(),
        "organised": event_selectors.organised_clubs(request.user),
    })


def club(request: HttpRequest, club_slug: str) -> HttpResponse:
    the_club = get_object_or_404(Club, slug=club_slug)
    organiser = request.user.has_perm("league.organise_club", the_club)
    members = club_selectors.members_shown_to(the_club, request.user)
    return render(request, "league/club.html", {
        "members": members, "online_ids": presence.online_ids(m.user_id for m in members),
        # Members are added by the club's organisers (the console): a visitor is told whom to ask.
        "is_member": any(m.user_id == request.user.pk for m in members),
        "join_request": club_selectors.join_request_of(the_club, request.user),
        "join_requests": club_selectors.waiting_join_requests(the_club) if organiser else [],
        "organisers": [m.user for m in members if m.role in ("owner", "organiser")],
        "club": the_club, "organiser": organiser, "leagues": event_selectors.club_leagues(the_club),
        "tournaments": event_selectors.club_tournaments(the_club, include_drafts=organiser),
    })



@login_required
@require_POST
def club_join(request: PlayerRequest, club_slug: str) -> HttpResponse:
    """Ask the club's organisers to be added as a member; a refusal is shown in words."""
    the_club = get_object_or_404(Club, slug=club_slug)
    try:
        _, new = club_services.ask_to_join(club=the_club, user=request.user)
        if new:
            messages.success(request, f"The organisers of {the_club.name} are asked to add you: you will have a "
                                      "notice when they answer.")
        else:
            messages.info(request, f"You asked before: the organisers of {the_club.name} have your request.")
    except ServiceError as err:
        messages.error(request, err.message)
    return redirect("competitions:club", club_slug)


@login_required
@require_POST
def club_join_answer(request: PlayerRequest, club_slug: str) -> HttpResponse:
    """An owner or organiser adds the person who asked, or declines."""
    the_club = get_object_or_404(Club, slug=club_slug)
    if not request.user.has_perm("league.organise_club", the_club):
        raise PermissionDenied
    action = request.POST.get("action")
    try:
        request_id = int(request.POST.get("request", ""))
        if action not in ("add", "decline"):
            raise ValueError(action)
    except ValueError:
        messages.error(request, "Choose a request, and Add or Decline.")
        return redirect("competitions:club", club_slug)
    try:
        answered = club_services.decide_join_request(request_id=request_id, by=request.user, accept=action == "add")
        messages.success(request, f"{answered.user.name} is now a member." if action == "add"
                         else f"{answered.user.name}'s request is declined.")
    except ServiceError as err:
        messages.error(request, err.message)
    return redirect(reverse("competitions:club", args=[club_slug]) + "#join-requests")
