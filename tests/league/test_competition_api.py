"""The competitions REST API: tournaments and sections, entries through the services
(refusals as 400 with the reason), rounds and pairings, standings (JSON and CSV), the
bracket and crosstable JSON, a player's rounds (JSON and iCalendar), and the schema."""

from __future__ import annotations

import csv
import io
from datetime import date, timedelta

import icalendar
import pytest
import yaml
from django.utils import timezone

from games import rule_sets as game_rule_sets
from league.models import ClubMembership, Entry, Section
from tests.factories import ClubFactory, MembershipFactory, make_section
from tests.support import api_as as api

from .support import play_to_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    """The harbour club, whose slug the requests name (tests/league/conftest.py's otherwise)."""
    return ClubFactory.create(name="Harbour club", slug="harbour")


@pytest.fixture
def organiser(make_player, club):
    """Here the club's owner (the other organising role)."""
    return MembershipFactory.create(club=club, user=make_player(username="otto"), role=ClubMembership.Role.OWNER).user


def test_a_club_slug_with_a_nul_is_refused_as_any_text_field(club, organiser):
    # PostgreSQL cannot look it up: a 500 before (a fuzzer, 2026-11-30).
    starts = (timezone.now() + timedelta(days=1)).isoformat()
    refused = api(organiser).post("/api/v1/tournaments/", {"club": "harbour\x00", "name": "Spring open",
                                                            "starts_at": starts}, format="json")
    assert refused.status_code == 400
    assert refused.json()["fields"] == {"club": ["Null characters are not allowed."]}


def test_organiser_creates_a_tournament_and_a_section(club, organiser, make_player):
    starts = (timezone.now() + timedelta(days=1)).isoformat()
    made = api(organiser).post("/api/v1/tournaments/", {"club": "harbour", "name": "Spring open",
                                                         "starts_at": starts}, format="json")
    assert made.status_code == 201, made.content
    tournament_id = made.json()["id"]
    rule_set = game_rule_sets.standard_rule_set("classic").pk

    refused = api(organiser).post("/api/v1/sections/", {
        "tournament": tournament_id, "name": "Open", "rule_set": rule_set, "format": "round-robin", "rounds": 5,
    }, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "bad-rounds"
    assert not Section.objects.filter(tournament_id=tournament_id).exists()
    for bye in ("-0.0", "2", "0.3"):  # "-0.0" equals 0, and was stored signed
        refused = api(organiser).post("/api/v1/sections/", {
            "tournament": tournament_id, "name": "Open", "rule_set": rule_set, "format": "swiss", "bye_points": bye,
        }, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == "bad-bye-points", (bye, refused.content)
    assert not Section.objects.filter(tournament_id=tournament_id).exists()

    made = api(organiser).post("/api/v1/sections/", {
        "tournament": tournament_id, "name": "Open", "variant": "tactic-toe", "format": "swiss",
        "tiebreaks": ["sonneborn-berger", "buchholz"], "age_under": 14, "round_interval": "00:30:00",
    }, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["variant"] == "tactic-toe" and body["round_interval"] == "00:30:00"
    assert body["tiebreaks"] == ["sonneborn-berger", "buchholz"] and body["age_under"] == 14
    assert body["status"] == "registration"

    stranger = make_player(username="stranger")
    refused = api(stranger).post("/api/v1/tournaments/", {"club": "harbour", "name": "Mine", "starts_at": starts},
                                 format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "not-organiser"
    assert api().post("/api/v1/tournaments/", {}, format="json").status_code == 401

    detail = api().get(f"/api/v1/tournaments/{tournament_id}/").json()
    assert [s["name"] for s in detail["sections"]] == ["Open"]
    listed = api().get("/api/v1/tournaments/", {"club": "harbour"}).json()["results"]
    assert [t["name"] for t in listed] == ["Spring open"]
    assert api().get("/api/v1/tournaments/", {"club": "elsewhere"}).json()["results"] == []


def test_placement_matches_and_consolation_settings(club, organiser):
    starts = (timezone.now() + timedelta(days=1)).isoformat()
    tournament_id = api(organiser).post("/api/v1/tournaments/", {"club": "harbour", "name": "Knockouts",
                                                                 "starts_at": starts}, format="json").json()["id"]

    def post(name, **settings):
        return api(organiser).post("/api/v1/sections/", {"tournament": tournament_id, "name": name, "variant": "classic",
                                                         "format": "single-elimination", **settings}, format="json")

    made = post("Every place", placements="all")
    assert made.status_code == 201, made.content
    assert (made.json()["placements"], made.json()["consolation"]) == ("all", False)
    old_name = post("Old name", third_place=True)  # third_place is placements' old name
    assert old_name.status_code == 201 and old_name.json()["placements"] == "third"
    assert "third_place" not in old_name.json()
    assert post("Both", third_place=True, placements="all").status_code == 400
    both = post("Both", placements="all", consolation=True)
    assert both.status_code == 400 and both.json()["code"] == "consolation-with-all-places"
    nonsense = post("Fourth", placements="fourth")
    assert nonsense.status_code == 400 and nonsense.json()["code"] == "bad-placements"
    made = post("Consolation", placements="third", consolation=True)
    assert made.status_code == 201 and made.json()["consolation"] is True
    assert sorted(Section.objects.filter(tournament_id=tournament_id).values_list("name", flat=True)) == [
        "Consolation", "Every place", "Old name"]


def test_drafts_are_for_organisers_only(club, organiser, make_player):
    draft = api(organiser).post("/api/v1/tournaments/", {
        "club": "harbour", "name": "Hidden", "starts_at": (timezone.now() + timedelta(days=1)).isoformat(),
        "draft": True}, format="json").json()
    assert draft["status"] == "draft"
    assert api().get(f"/api/v1/tournaments/{draft['id']}/").status_code == 404
    assert api(organiser).get(f"/api/v1/tournaments/{draft['id']}/").status_code == 200
    # A section for it from anyone else: answered as for an id that does not exist (the club unnamed).
    outsider = make_player(username="outsider")
    sent = {"name": "Open", "format": "swiss", "variant": "classic"}
    hidden = api(outsider).post("/api/v1/sections/", {**sent, "tournament": draft["id"]}, format="json")
    missing = api(outsider).post("/api/v1/sections/", {**sent, "tournament": 10**9}, format="json")
    assert hidden.status_code == missing.status_code == 400
    assert hidden.json()["code"] == missing.json()["code"]
    assert hidden.json()["message"] == missing.json()["message"].replace(str(10**9), str(draft["id"]))
    assert club.name not in hidden.content.decode()
    made = api(organiser).post("/api/v1/sections/", {**sent, "tournament": draft["id"]}, format="json")
    assert made.status_code == 201, made.content
    opened = api(organiser).post(f"/api/v1/tournaments/{draft['id']}/open-registration/")
    assert opened.json()["status"] == "registration"
    assert api().get(f"/api/v1/tournaments/{draft['id']}/").status_code == 200


def test_entries_register_refuse_withdraw(club, organiser, make_player):
    section = make_section(club, organiser, format="swiss", age_under=12, age_year=2026)
    young, old = make_player(username="kid", born=date(2015, 6, 1)), make_player(username="teen", born=date(2013, 3, 1))
    url = f"/api/v1/sections/{section.pk}/entries/"

    assert api().post(url).status_code == 401
    made = api(young).post(url)
    assert made.status_code == 201 and made.json()["status"] == "registered"
    again = api(young).post(url)
    assert again.status_code == 400 and again.json()["code"] == "already-entered"

    refused = api(old).post(url)
    assert refused.status_code == 400
    assert refused.json() == {"code": "not-eligible",
                              "message": "Born 2013, and this U12 section is for players born 2014 or later."}
    assert not Entry.objects.filter(section=section, user=old).exists()

    assert [e["username"] for e in api().get(url).json()] == ["kid"]
    # A form's blank username is a blank given, not "yourself" (it withdrew the caller).
    blank = api(young).post(f"/api/v1/sections/{section.pk}/withdraw/", {"username": ""}, format="multipart")
    assert blank.status_code == 400 and blank.json()["fields"] == {"username": ["This field may not be blank."]}
    assert Entry.objects.get(section=section, user=young).status == "registered"
    left = api(young).post(f"/api/v1/sections/{section.pk}/withdraw/", {"reason": "ill"}, format="json")
    assert left.status_code == 200 and left.json()["status"] == "withdrawn" and left.json()["withdrawn_reason"] == "ill"
    assert api(young).post(f"/api/v1/sections/{section.pk}/withdraw/").json()["code"] == "not-entered"


def test_swiss_rounds_standings_json_and_csv(club, organiser, make_player):
    people = [make_player(username=f"as{i}") for i in range(1, 8)]  # odd: one bye a round
    section = make_section(club, organiser, format="swiss", players=people, rounds=3,
                           tiebreaks=["buchholz-cut1", "wins"])
    member = make_player(username="nobody")
    refused = api(member).post(f"/api/v1/sections/{section.pk}/start/")
    assert refused.status_code == 403 and refused.json()["code"] == "not-organiser"
    started = api(organiser).post(f"/api/v1/sections/{section.pk}/start/")
    assert started.status_code == 200 and started.json()["status"] == "running"

    rounds = api().get(f"/api/v1/sections/{section.pk}/rounds/").json()
    assert [r["number"] for r in rounds] == [1]
    boards = rounds[0]["pairings"]
    assert len(boards) == 4 and sum(b["second"] is None for b in boards) == 1
    assert all(b["game"] for b in boards if b["second"]) and all(b["status"] == "in-play" for b in boards if b["second"])

    play_to_the_end(section)
    rounds = api().get(f"/api/v1/sections/{section.pk}/rounds/").json()
    assert [r["number"] for r in rounds] == [3, 2, 1]
    assert all(b["result"] for r in rounds for b in r["pairings"])

    table = api().get(f"/api/v1/sections/{section.pk}/standings/").json()
    assert len(table) == 7 and [list(r["tiebreaks"]) for r in table] == [["buchholz-cut1", "wins"]] * 7
    assert sum(r["points"] for r in table) == 3 * 3 + 3 * 1.0  # three games and a bye each round
    assert [r["rank"] for r in table] == sorted(r["rank"] for r in table)

    response = api().get(f"/api/v1/sections/{section.pk}/standings/", {"format": "csv"})
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["username"] for r in rows] == [r["username"] for r in table]
    assert [float(r["points"]) for r in rows] == [r["points"] for r in table]

    wrong = api().get(f"/api/v1/sections/{section.pk}/bracket/")
    assert wrong.status_code == 400 and wrong.json()["code"] == "no-bracket"


def test_bracket_and_crosstable_json(club, organiser, make_player):
    knockout = make_section(club, organiser, format="single-elimination",
                            players=[make_player(username=f"b{i}") for i in range(1, 7)])
    api(organiser).post(f"/api/v1/sections/{knockout.pk}/start/")
    data = api().get(f"/api/v1/sections/{knockout.pk}/bracket/").json()
    first = data["columns"][0]["matches"]
    assert len(first) == 4
    byes = [m for m in first if m["bye"]]
    assert sorted(s["player"]["seed"] for m in byes for s in m["sides"] if s["player"]) == [1, 2]
    assert all(m["decided"] for m in byes) and not any(m["decided"] for m in first if not m["bye"])

    league_table = make_section(club, organiser, format="round-robin",
                                players=[make_player(username=f"c{i}") for i in range(1, 5)])
    api(organiser).post(f"/api/v1/sections/{league_table.pk}/start/")
    play_to_the_end(league_table)
    table = api().get(f"/api/v1/sections/{league_table.pk}/crosstable/").json()
    assert [p["number"] for p in table["players"]] == [1, 2, 3, 4]
    assert all(row["cells"][row["number"] - 1] == "X" for row in table["rows"])
    assert all(cell for row in table["rows"] for cell in row["cells"])  # everyone met everyone
    assert api().get(f"/api/v1/sections/{league_table.pk}/crosstable/", {"format": "csv"}).status_code == 404


def test_player_rounds_json_and_icalendar(club, organiser, make_player):
    people = [make_player(username=f"pr{i}") for i in range(1, 4)]
    section = make_section(club, organiser, format="round-robin", players=people)
    api(organiser).post(f"/api/v1/sections/{section.pk}/start/")
    # Only the player themself (tests/league/test_private_links.py has the refusals).
    rows = api(people[0]).get("/api/v1/players/pr1/rounds/").json()
    assert len(rows) == 1 and rows[0]["round"] == 1 and rows[0]["section"] == section.pk
    assert rows[0]["opponent"] in {"pr2", "pr3", "bye"}

    response = api(people[0]).get("/api/v1/players/pr1/rounds/", {"format": "ics"})
    assert response["Content-Type"].startswith("text/calendar")
    events = list(icalendar.Calendar.from_ical(response.content).walk("VEVENT"))
    assert len(events) == 1 and "round 1" in str(events[0]["summary"])
    assert api(people[0]).get("/api/v1/players/ghost/rounds/").status_code == 403


def test_the_competition_api_is_in_the_schema(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)
    paths = schema["paths"]
    for path in ("/api/v1/tournaments/", "/api/v1/tournaments/{id}/", "/api/v1/tournaments/{id}/start/",
                 "/api/v1/sections/", "/api/v1/sections/{id}/entries/", "/api/v1/sections/{id}/withdraw/",
                 "/api/v1/sections/{id}/rounds/", "/api/v1/sections/{id}/standings/",
                 "/api/v1/sections/{id}/bracket/", "/api/v1/sections/{id}/crosstable/",
                 "/api/v1/players/{username}/rounds/"):
        assert path in paths, path
    standings = paths["/api/v1/sections/{id}/standings/"]["get"]["responses"]["200"]["content"]
    assert {"application/json", "text/csv"} <= set(standings)
    assert "text/calendar" in paths["/api/v1/players/{username}/rounds/"]["get"]["responses"]["200"]["content"]
