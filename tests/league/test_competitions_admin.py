"""The competition models in the admin: lists load; progress rows are read-only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import SuperuserFactory, players, section_with

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["league", "season", "tournament", "section", "entry", "round", "pairing",
                                   "standing", "prize"])
def test_changelists_load(client, make_player, model):
    section_with(players(make_player, 4), format="swiss", rounds=2)
    admin = SuperuserFactory.create(password="pw-long-enough-1")
    client.force_login(admin)
    response = client.get(reverse(f"admin:league_{model}_changelist"))
    assert response.status_code == 200


def test_sections_cannot_be_added_in_the_admin(client):
    admin = SuperuserFactory.create(password="pw-long-enough-1")
    client.force_login(admin)
    assert client.get(reverse("admin:league_section_add")).status_code == 403


def test_a_sections_admin_page_shows_its_own_formats_settings_only(client, make_player):
    swiss = section_with(players(make_player, 2), format="swiss", rounds=1, start=False)
    robin = section_with(players(make_player, 3, prefix="r"), format="round-robin", start=False, tournament="RR")
    client.force_login(SuperuserFactory.create(password="pw-long-enough-1"))
    swiss_page = client.get(reverse("admin:league_section_change", args=[swiss.pk])).content.decode()
    robin_page = client.get(reverse("admin:league_section_change", args=[robin.pk])).content.decode()
    assert "Swiss system" in swiss_page and "Fast score groups" in swiss_page and "Cycles" not in swiss_page
    assert "Swiss system" not in robin_page and "Cycles" in robin_page


def test_the_sections_variant_filter_names_the_variants(client, make_player):
    """The newcomer walkthrough's find: the filter listed "classic" and "tic-tac-two", the
    variants' codes; it says their names, as the rest of the site does, and still filters."""
    section_with(players(make_player, 2), format="swiss", rounds=1, start=False)
    section_with(players(make_player, 2, prefix="t"), format="swiss", rounds=1, start=False,
                 variant="tic-tac-two", tournament="Two cup")
    client.force_login(SuperuserFactory.create(password="pw-long-enough-1"))
    changelist = reverse("admin:league_section_changelist")
    page = client.get(changelist).content.decode()
    assert 'href="?variant=tic-tac-two">Tic Tac Two</a>' in page
    assert 'href="?variant=classic">Classic Tic Tac Toe</a>' in page
    filtered = client.get(changelist, {"variant": "tic-tac-two"})
    assert [section.variant for section in filtered.context["cl"].result_list] == ["tic-tac-two"]
    assert '<td class="field-variant_name">Tic Tac Two</td>' in filtered.content.decode()  # the column too
