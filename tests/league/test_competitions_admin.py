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
