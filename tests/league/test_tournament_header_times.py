"""The tournament's header says what is true: "Starts <the planned time>" before play,
"In play since <when round 1 really began>" once it has (it kept saying "Starts" a later
time while the event had been in play for hours), "Started ... · ended ..." when over."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league import competitions as cs
from league.competitions import trf_state
from league.models import League, Season, Section
from tests.factories import players, section_with

from .support import decide, text_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def header(client, section) -> str:
    t = section.tournament
    page = client.get(reverse("competitions:tournament", args=[t.club.slug, t.slug])).content.decode()
    return text_of(page.split('id="tournament-when"', 1)[1].split("</p>", 1)[0])


def words(moment) -> str:
    return f"{moment:%a} {moment.day} {moment:%b %Y, %H:%M} UTC"


def test_the_header_says_when_play_really_began(client, make_player):
    section = section_with(players(make_player, 2), format="swiss", rounds=1, start=False, starts_in=3 * 3600)
    planned = section.tournament.starts_at
    assert header(client, section).startswith(f">Starts {words(planned)}")
    began = timezone.now()
    cs.start_round(section_id=section.pk, number=1, now=began, force=True)  # started early by the organiser
    text = header(client, section)
    assert text.startswith(f">In play since {words(began)}")
    assert "Starts" not in text
    decide(section)
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    section.tournament.refresh_from_db()
    text = header(client, section)
    assert text.startswith(f">Started {words(began)} · ended {words(section.tournament.finished_at)}")
    assert timedelta(0) <= section.tournament.finished_at - began < timedelta(minutes=5)


def test_the_header_says_unrated_when_no_section_is_rated(client, make_player):
    """It said "Live: every game is rated as it ends" above a section that rates nothing
    (the demo's Morning Cup)."""
    section = section_with(players(make_player, 2), format="swiss", rounds=1, start=False, rated=False)
    assert header(client, section).endswith("· Unrated: no section is rated")
    Section.objects.filter(pk=section.pk).update(rated=True)
    assert header(client, section).endswith("· Live: every game is rated as it ends")


def test_the_club_and_season_lists_and_the_trf_say_when_play_really_began(client, make_player):
    """The club page's card said "In play · <the planned date a week on>" and the TRF's 042
    the planned date, while the tournament's page said "In play since" (outside organiser)."""

    section = section_with(players(make_player, 2), format="swiss", rounds=1, start=False, starts_in=7 * 86400)
    t = section.tournament
    league = League.objects.create(club=t.club, name="Winter league", slug="winter")
    t.season = Season.objects.create(league=league, name="2026", slug="2026", year=2026)
    t.save(update_fields=["season"])
    planned = t.starts_at
    club_page = text_of(client.get(reverse("competitions:club", args=[t.club.slug])).content.decode())
    assert f"Starts {words(planned)}" in club_page
    assert trf_state.section_tournament(section).header("042") == f"{planned:%Y/%m/%d}"
    began = timezone.now()
    cs.start_round(section_id=section.pk, number=1, now=began, force=True)  # started a week early
    section.refresh_from_db()
    club_page = text_of(client.get(reverse("competitions:club", args=[t.club.slug])).content.decode())
    assert f"In play since {words(began)}" in club_page
    assert words(planned) not in club_page
    season = t.season
    season_page = text_of(client.get(reverse("competitions:season", args=[
        t.club.slug, season.league.slug, season.slug])).content.decode())
    assert f"In play since {words(began)}" in season_page
    assert trf_state.section_tournament(section).header("042") == f"{began:%Y/%m/%d}"
