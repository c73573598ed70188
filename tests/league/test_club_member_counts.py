"""A club's member count is the length of the list the same viewer sees (a walkthrough
found "11 members" on the home page above a club page listing 9)."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from league.models import ClubMembership
from tests.factories import ClubFactory
from tests.support import token_client


@pytest.fixture
def club_of_four(make_player, alice, bob):
    """Two adults, a child opened by their guardian (listed to fellow members only) and a
    closed account (listed to no one)."""
    club = ClubFactory.create(name="Counting Club")
    child = make_player(username="kiddo", born=date(timezone.now().year - 10, 1, 1), guardian_name="Parent",
                        guardian_email="parent@example.com")
    closed = make_player(username="closed")
    closed.is_active = False
    closed.save()
    for user in (alice, bob, child, closed):
        ClubMembership.objects.create(club=club, user=user)
    return club


def home_count(client: Client) -> str:
    page = client.get(reverse("home")).content.decode()
    return page.split("Counting Club")[1].split("member")[0].rsplit(">", 1)[1].strip()


def club_page_listed(client: Client, club) -> int:
    page = client.get(reverse("competitions:club", args=[club.slug])).content.decode()
    return sum(name in page for name in ("alice", "bob", "kiddo", "closed"))


@pytest.mark.django_db
def test_the_home_page_counts_the_members_the_club_page_lists(club_of_four, make_player, alice):
    outsider = make_player(username="outsider")
    for viewer, expected in ((None, 2), (outsider, 2), (alice, 3)):
        client = Client()
        if viewer is not None:
            client.force_login(viewer)
        assert home_count(client) == str(expected), viewer
        assert club_page_listed(client, club_of_four) == expected, viewer


@pytest.mark.django_db
def test_the_api_counts_the_members_it_lists(club_of_four, alice):
    for viewer, expected in ((None, 2), (alice, 3)):
        api = token_client(viewer) if viewer else Client()
        for url in (f"/api/v1/clubs/{club_of_four.slug}/", "/api/v1/clubs/"):
            body = api.get(url).json()
            club = body if "slug" in body else next(c for c in body["results"] if c["slug"] == club_of_four.slug)
            assert club["member_count"] == len(club["members"]) == expected, (viewer, url)
