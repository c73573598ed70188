"""Every league page's breadcrumb, one way: ``{% load league_crumbs %}{% crumbs club=club
tournament=tournament section=section here="Edit" %}``. It starts at "Clubs & events",
then each level given, linked; the last is the page itself, not linked (``here``: words
for a page below the last level given, "Edit", "Preview", "New section")."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

register = template.Library()


@register.inclusion_tag("league/_crumbs.html")
def crumbs(*, club: Any = None, league: Any = None, season: Any = None, tournament: Any = None,
           section: Any = None, here: str = "") -> dict[str, Any]:
    trail = [("Clubs & events", reverse("competitions:clubs"))]
    if club is not None:
        trail.append((club.name, reverse("competitions:club", args=[club.slug])))
    if league is not None:
        trail.append((league.name, reverse("competitions:league", args=[club.slug, league.slug])))
    if season is not None:
        trail.append((season.name, reverse("competitions:season", args=[club.slug, league.slug, season.slug])))
    if tournament is not None:
        trail.append((tournament.name, reverse("competitions:tournament", args=[club.slug, tournament.slug])))
    if section is not None:
        trail.append((section.name, reverse("competitions:section", args=[club.slug, tournament.slug, section.slug])))
    if not here:
        here = trail.pop()[0]
    return {"trail": trail, "here": here}
