"""The console's "By tournament" filter (pairings, entries, games) offers the events in
play, upcoming and ended in the last 30 days, in that order, not every event the club
ever held: an organiser walkthrough found it grow without bound after a few seasons.
An older event is still reached: by its name in the list's search, and a link that
chose it still shows it chosen (docs/moderation.md, "Finding a pairing")."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from league.admin.competitions import RECENT_EVENT_DAYS
from league.models import Entry, Pairing, Tournament
from tests.factories import section_with

pytestmark = pytest.mark.django_db

LISTS = ("/admin/league/pairing/", "/admin/league/entry/", "/admin/games/game/")


def event(world, make_player, name: str, *, status: str, ended_days_ago: float | None = None):
    section = section_with([make_player(), make_player()], format="round-robin", club=world.club_a, tournament=name,
                           rule_set=world.rules_a, starts_in=3600)
    fields: dict = {"status": status}
    if ended_days_ago is not None:
        fields["finished_at"] = timezone.now() - timedelta(days=ended_days_ago)
    Tournament.objects.filter(pk=section.tournament_id).update(**fields)
    return section


def offered(page: str, parameter: str) -> list[int]:
    """The ids a filter's choice links set ``parameter`` to, in order."""
    return [int(pk) for pk in re.findall(rf'href="\?(?:[^"]*&(?:amp;)?)?{parameter}=(\d+)[&"]', page)]


@pytest.fixture
def events(world, make_player):
    return {
        "old": event(world, make_player, "Old cup", status="finished", ended_days_ago=400),
        "recent": event(world, make_player, "Recent cup", status="finished", ended_days_ago=5),
        "spring": event(world, make_player, "Spring cup", status="running"),
        "next": event(world, make_player, "Next cup", status="registration"),
    }


@pytest.mark.parametrize("url", LISTS)
def test_the_filter_offers_current_and_recent_events_first_and_not_old_ones(client, world, events, url):
    client.force_login(world.organiser_a)
    page = client.get(url).content.decode()
    assert f"By tournament (current and last {RECENT_EVENT_DAYS} days; search finds older)" in page
    ids = {name: section.tournament_id for name, section in events.items()}
    # In play, then upcoming, then ended lately; the event ended 400 days ago is not offered.
    assert offered(page, "tournament") == [ids["spring"], ids["next"], ids["recent"]]
    assert "Spring cup (in play)" in page and "Recent cup (ended " in page and "Next cup (starts " in page


def test_an_older_event_is_found_by_name_and_stays_chosen(client, world, events):
    old, spring = events["old"], events["spring"]
    client.force_login(world.organiser_a)
    old_pairing = Pairing.objects.get(section=old)
    spring_pairing = Pairing.objects.get(section=spring)

    page = client.get("/admin/league/pairing/", {"q": "Old cup"}).content.decode()
    assert f"/admin/league/pairing/{old_pairing.pk}/change/" in page
    assert f"/admin/league/pairing/{spring_pairing.pk}/change/" not in page

    page = client.get("/admin/league/pairing/", {"tournament": old.tournament_id}).content.decode()
    assert f"/admin/league/pairing/{old_pairing.pk}/change/" in page
    assert f"/admin/league/pairing/{spring_pairing.pk}/change/" not in page
    assert "Old cup (ended " in page  # the choice it came by is shown, chosen
    # Its sections are offered once it is chosen (and only then).
    assert old.pk in offered(page, "section__id__exact") and spring.pk not in offered(page, "section__id__exact")
    page = client.get("/admin/league/pairing/").content.decode()
    assert old.pk not in offered(page, "section__id__exact") and spring.pk in offered(page, "section__id__exact")

    entries = client.get("/admin/league/entry/", {"tournament": old.tournament_id}).content.decode()
    assert all(f"/admin/league/entry/{e.pk}/change/" in entries for e in Entry.objects.filter(section=old))
    assert not any(f"/admin/league/entry/{e.pk}/change/" in entries for e in Entry.objects.filter(section=spring))
    games = client.get("/admin/games/game/", {"q": "Old cup"}).content.decode()
    old_game = Game.objects.get(pairing__section=old)
    assert f"/admin/games/game/{old_game.pk}/change/" in games
    assert f"/admin/games/game/{Game.objects.get(pairing__section=spring).pk}/change/" not in games


def test_another_clubs_events_and_bad_choices(client, world, events, make_player):
    elsewhere = section_with([make_player(), make_player()], format="round-robin", club=world.club_b,
                             tournament="Club B cup", rule_set=world.rules_b, starts_in=3600)
    client.force_login(world.organiser_a)
    for url in LISTS:
        page = client.get(url).content.decode()
        assert elsewhere.tournament_id not in offered(page, "tournament") and "Club B cup" not in page
        # Another club's event chosen by hand shows nothing of it.
        page = client.get(url, {"tournament": elsewhere.tournament_id}).content.decode()
        assert "Club B cup" not in page
        for bad in ("abc", "9" * 30):
            assert client.get(url, {"tournament": bad}).status_code == 200
