"""A round robin played in groups ranks each group apart: the API's standings say which
group a row is in, as the page's tables do. Without it a bot read two rank-1 rows with
1 point and ½ point and no way to tell they top different groups."""

from __future__ import annotations

import pytest
from django.test import Client

from league.formats.stages import group_letter, snake_group
from tests.factories import players, section_with

pytestmark = pytest.mark.django_db


def test_each_standing_names_its_group(make_player):
    entrants = players(make_player, 6, prefix="g")
    section = section_with(entrants, format="round-robin", groups=2)
    rows = Client().get(f"/api/v1/sections/{section.pk}/standings/").json()
    assert len(rows) == 6
    for row in rows:
        assert row["group"] == group_letter(snake_group(row["seed"], 2))
    assert {row["group"] for row in rows} == {"A", "B"}


def test_a_section_without_groups_has_none(make_player):
    section = section_with(players(make_player, 4, prefix="h"), format="round-robin")
    assert {row["group"] for row in Client().get(f"/api/v1/sections/{section.pk}/standings/").json()} == {""}
