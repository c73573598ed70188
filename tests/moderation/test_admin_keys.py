"""A key typed into a raw-id box of the console (a policy's invited users, a ban's game)
that could be no row's: refused beside the field, nothing saved. A 20-digit id in the
invited users was a 500 (OverflowError on SQLite, the database's error on PostgreSQL;
an outside probe, 2026-12-01)."""

from __future__ import annotations

import re

import pytest

from moderation.models import ObserverPolicy

pytestmark = pytest.mark.django_db

ADD = "/admin/moderation/observerpolicy/add/"


def errors(response) -> list[str]:
    return re.findall(r'<ul class="errorlist[^"]*"[^>]*><li>(.*?)</li>', response.content.decode())


@pytest.mark.parametrize("invited", ["99999999999999999999", "1,99999999999999999999", "-1", "abc"])
def test_an_invited_id_no_row_could_have_is_refused_on_the_form(client, world, invited):
    client.force_login(world.organiser_a)
    response = client.post(ADD, {"game": world.game_a.pk, "policy": "invited", "cap": "", "invited": invited,
                                 "club": "", "section": "", "_save": "Save"})
    assert response.status_code == 200
    assert errors(response)  # "… is not a valid value." or "Select a valid choice. …"
    assert not ObserverPolicy.objects.exists()


@pytest.mark.parametrize("game", ["99999999999999999999", "-1"])
def test_a_game_id_no_row_could_have_is_refused_on_the_form(client, world, game):
    client.force_login(world.organiser_a)
    response = client.post(ADD, {"game": game, "policy": "signed-in", "cap": "", "invited": "",
                                 "club": "", "section": "", "_save": "Save"})
    assert response.status_code == 200
    assert errors(response)
    assert not ObserverPolicy.objects.exists()


@pytest.mark.parametrize("policy", ["anyone", "signed-in", "members", "none"])
def test_invited_users_beside_another_policy_are_refused_beside_the_list(client, world, policy):
    """Saved, the list looked in force and was not: only "invited" reads it."""
    client.force_login(world.organiser_a)
    response = client.post(ADD, {"game": world.game_a.pk, "policy": policy, "cap": "", "invited": world.member_a.pk,
                                 "club": "", "section": "", "_save": "Save"})
    assert response.status_code == 200
    assert re.search(r'<ul class="errorlist" id="id_invited_error"><li>Only the policy', response.content.decode())
    assert not ObserverPolicy.objects.exists()
    saved = client.post(ADD, {"game": world.game_a.pk, "policy": "invited", "cap": "", "invited": world.member_a.pk,
                              "club": "", "section": "", "_save": "Save"})
    assert saved.status_code == 302
    assert list(ObserverPolicy.objects.get().invited.all()) == [world.member_a]
