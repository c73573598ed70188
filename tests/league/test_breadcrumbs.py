"""Every league page's breadcrumb starts the same way, "Clubs & events", then the club
and each level down to the page itself (league/templatetags/league_crumbs.py, one for
all): the round preview and the edit pages had lost the first link."""

from __future__ import annotations

import re
from datetime import date
from html import unescape

import pytest
from django.urls import reverse

from league.competitions import seasons
from league.models import Section
from tests.factories import make_section

from .support import text_of

pytestmark = pytest.mark.django_db


def crumbs_of(html: str) -> tuple[list[str], list[str]]:
    """The breadcrumb's links (their hrefs) and its steps in words."""
    navs = re.findall(r'<nav class="crumbs" aria-label="Breadcrumb">(.*?)</nav>', html, re.S)
    assert len(navs) == 1
    steps = [unescape(text_of(step)).strip() for step in navs[0].split("\N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK}")]
    return re.findall(r'href="([^"]+)"', navs[0]), steps


def test_every_league_page_s_breadcrumb_starts_at_clubs_and_events(client, club, organiser, make_player):
    section = make_section(club, organiser, format="swiss", rounds=2, players=[make_player(), make_player()])
    tournament = section.tournament
    league = seasons.create_league(by=organiser, club=club, name="Winter league")
    season = seasons.create_season(by=organiser, league=league, name="2026",
                                   starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31))
    at_club = [club.slug]
    at_league = [*at_club, league.slug]
    at_tournament = [*at_club, tournament.slug]
    at_section = [*at_tournament, section.slug]
    t, s = tournament.name, section.name
    below_club = {  # each page: its breadcrumb's steps after "Clubs & events", the club
        reverse("competitions:club", args=at_club): [],
        reverse("competitions:league", args=at_league): [league.name],
        reverse("competitions:league-new", args=at_club): ["New league"],
        reverse("competitions:league-edit", args=at_league): [league.name, "Edit"],
        reverse("competitions:season", args=[*at_league, season.slug]): [league.name, "2026"],
        reverse("competitions:season-new", args=at_league): [league.name, "New season"],
        reverse("competitions:season-edit", args=[*at_league, season.slug]): [league.name, "2026", "Edit"],
        reverse("competitions:tournament", args=at_tournament): [t],
        reverse("competitions:tournament-new", args=at_club): ["New tournament"],
        reverse("competitions:tournament-edit", args=at_tournament): [t, "Edit"],
        reverse("competitions:section-new", args=at_tournament): [t, "New section"],
        reverse("competitions:section", args=at_section): [t, s],
        reverse("competitions:section-edit", args=at_section): [t, s, "Edit"],
        reverse("arbiter:round-preview", args=[*at_section, 1]): [t, s, "Preview"],
    }
    client.force_login(organiser)
    for path, rest in below_club.items():
        page = client.get(path)
        assert page.status_code == 200, path
        links, words = crumbs_of(page.content.decode())
        assert links[0] == reverse("competitions:clubs"), path
        assert words == ["Clubs & events", club.name, *rest], path
        assert len(links) == len(words) - 1, path  # every step above the page itself is a link
    Section.objects.filter(pk=section.pk).update(status=Section.Status.FINISHED)
    links, words = crumbs_of(client.get(reverse("competitions:section-results", args=at_section)).content.decode())
    assert words == ["Clubs & events", club.name, t, s, "Results"]
    assert links[0] == reverse("competitions:clubs")
