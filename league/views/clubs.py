"""Club pages, mounted at /clubs/ by config/urls.py: the clubs and one club with its
leagues, tournaments and members (who is online, a challenge for each)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from accounts import presence
from league.clubs import selectors as club_selectors
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
        "organisers": [m.user for m in members if m.role in ("owner", "organiser")],
        "club": the_club, "organiser": organiser, "leagues": event_selectors.club_leagues(the_club),
        "tournaments": event_selectors.club_tournaments(the_club, include_drafts=organiser),
    })
