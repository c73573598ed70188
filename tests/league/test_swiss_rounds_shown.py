"""A Swiss's number of rounds is said before its start as after it, on its page and in its
tournament's list of sections (it was "Swiss" alone until round 1, and never in the list)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from league import competitions as cs
from tests.factories import players, section_with

from .support import text_of, url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def pages(client, section) -> tuple[str, str]:
    t = section.tournament
    return (text_of(client.get(url("section", section)).content.decode()),
            text_of(client.get(reverse("competitions:tournament", args=[t.club.slug, t.slug])).content.decode()))


def test_a_swiss_says_its_rounds_before_and_after_its_start(client, make_player):
    section = section_with(players(make_player, 6), format="swiss", rounds=5, start=False,
                           round_interval=timedelta(hours=1))
    for page in pages(client, section):
        assert "Swiss · 5 rounds" in page
    cs.start_round(section_id=section.pk, number=1, force=True)
    for page in pages(client, section):
        assert "Swiss · 5 rounds" in page


def test_a_swiss_with_the_recommended_rounds_says_when_they_are_fixed(client, make_player):
    section = section_with(players(make_player, 6), format="swiss", start=False, round_interval=timedelta(hours=1))
    for page in pages(client, section):
        assert "rounds: the recommended number for the field, fixed at the start" in page
    cs.start_round(section_id=section.pk, number=1, force=True)
    section.refresh_from_db()
    for page in pages(client, section):
        assert f"Swiss · {section.total_rounds} rounds" in page
