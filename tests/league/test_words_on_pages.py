"""From an outside walkthrough of the section, tournament and rating pages: what they
say reads as people say it. Clocks and schedules in words ("3 minutes a game", not "180
s a game"); an entry's state in one sentence, never a status word repeated as its own
reason; a Swiss bye's points said beside the player they lift; rating changes as
"1512 → 1528 (+16)", the sign always shown, "provisional" in a word."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import rule_sets as game_rule_sets
from league.competitions import event_services
from league.templatetags.league_sections import duration, duration_words

from .support import text_of, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(club, organiser):
    return event_services.create_tournament(by=organiser, club=club, name="Words cup",
                                            starts_at=timezone.now() + timedelta(days=1))


# -- 1. durations in words -------------------------------------------------------------------


@pytest.mark.parametrize(("seconds", "words"), [
    (180, "3 minutes"), (10, "10 seconds"), (90, "1 minute 30 seconds"), (60, "1 minute"), (1, "1 second"),
    (5400, "1 hour 30 minutes"), (3600, "1 hour"), (2 * 86400, "2 days"), (86400 + 61, "1 day 1 minute 1 second"),
    (0, "0 seconds"),
])
def test_a_length_is_said_as_people_say_it(seconds, words):
    assert duration_words(seconds) == words


def test_the_duration_filter_takes_a_schedule_or_a_clock():
    assert duration(timedelta(minutes=20)) == "20 minutes"
    assert duration(180) == "3 minutes"
    assert duration(None) == "" and duration(0) == ""


def test_a_sections_clock_is_said_in_minutes_and_seconds(client, organiser, tournament):
    """The facts said "180 s a game · 10 s a move", and its rules in words "Each player has
    180 seconds for the whole game."."""
    clocked = game_rule_sets.create_rule_set(name="Blitz", variant="classic", seconds_per_game=180,
                                             seconds_per_move=10)
    section = event_services.create_section(by=organiser, tournament=tournament, name="Blitz", format="swiss",
                                            variant="classic", rule_set=clocked)
    page = text_of(client.get(url("section", section)).content.decode())
    assert "Blitz (classic) · 3 minutes a game · 10 seconds a move · rated" in page
    assert "Each move must be made within 10 seconds." in page
    assert "Each player has 3 minutes for the whole game." in page
    assert "180" not in page and " s a " not in page
    # The clock sits before who is Player One, as the describer orders it.
    assert page.index("for the whole game.") < page.index("Player One is decided by: the pairing")
    listing = text_of(client.get(reverse("competitions:tournament", args=[tournament.club.slug, tournament.slug]))
                      .content.decode())
    assert "Swiss · Blitz (classic) · 3 minutes a game · 10 seconds a move · rated" in listing


def test_a_clock_of_odd_seconds_keeps_both_units(client, organiser, tournament):
    clocked = game_rule_sets.create_rule_set(name="Ninety", variant="classic", seconds_per_game=90)
    section = event_services.create_section(by=organiser, tournament=tournament, name="Ninety", format="swiss",
                                            variant="classic", rule_set=clocked)
    page = text_of(client.get(url("section", section)).content.decode())
    assert "· 1 minute 30 seconds a game ·" in page and "Each player has 1 minute 30 seconds for the whole game." in page
