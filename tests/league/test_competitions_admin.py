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
