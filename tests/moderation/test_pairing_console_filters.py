"""The console's pairings list, where results are forfeited, adjudicated and corrected,
is found from the section page and narrowed to it: it listed every pairing of every
tournament with filters by status and result only, and nothing on the section page led
there (outside organiser)."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from accounts.models import Profile
from league.models import Pairing
from tests.factories import section_with

from .support import tournament_section

pytestmark = pytest.mark.django_db

LIST = "/admin/league/pairing/"


def changed(pairing: Pairing) -> str:
    return f"/admin/league/pairing/{pairing.pk}/change/"


def section_page(client, section) -> str:
    t = section.tournament
    return client.get(reverse("competitions:section", args=[t.club.slug, t.slug, section.slug])).content.decode()


def test_the_list_narrows_to_a_section_and_round_within_the_organisers_clubs(client, world, make_player):
    spring = tournament_section(world, [world.player_1, world.player_2])
    summer = section_with([world.member_a, world.arbiter_a], format="round-robin", club=world.club_a,
                          tournament="Summer cup", rule_set=world.rules_a, starts_in=3600)
    elsewhere = section_with([make_player(), make_player()], format="round-robin", club=world.club_b,
                             tournament="Club B cup", rule_set=world.rules_b, starts_in=3600)
    ours, theirs, foreign = (Pairing.objects.get(section=s) for s in (spring, summer, elsewhere))
    client.force_login(world.organiser_a)

    everything = client.get(LIST).content.decode()
    assert changed(ours) in everything and changed(theirs) in everything and changed(foreign) not in everything
    # The filters offer this organiser's events only.
    assert "Spring cup" in everything and "Summer cup" in everything and "Club B cup" not in everything
    assert "By tournament" in everything and "By section" in everything and "By round" in everything

    narrowed = client.get(LIST, {"section__id__exact": spring.pk, "round__number": 1})
    assert narrowed.status_code == 200
    page = narrowed.content.decode()
    assert changed(ours) in page and changed(theirs) not in page
    assert "Correct the result: a draw" in page  # the correction actions act on this list
    # Another club's section stays out of reach through the filter too.
    page = client.get(LIST, {"section__id__exact": elsewhere.pk}).content.decode()
    assert changed(foreign) not in page

    # Found by the player's name as shown, not only the username.
    Profile.objects.filter(user=world.member_a).update(display_name="Zelda Quill")
    page = client.get(LIST, {"q": "Zelda"}).content.decode()
    assert changed(theirs) in page and changed(ours) not in page


def test_the_section_page_links_its_organisers_to_the_round_in_the_console(client, world):
    section = tournament_section(world, [world.player_1, world.player_2])
    link = f'{LIST}?section__id__exact={section.pk}&round__number=1'
    client.force_login(world.organiser_a)
    assert link in unescape(section_page(client, section))
    assert "Correct a result in the console" in section_page(client, section)
    for someone in (world.player_1, world.organiser_b):
        client.force_login(someone)
        assert "Correct a result in the console" not in section_page(client, section)
        assert LIST not in section_page(client, section)
