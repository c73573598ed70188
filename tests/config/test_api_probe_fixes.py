"""API defects an outside security probe found, each answered as docs/api.md says:
an empty query filter is the filter left out; a PATCH names the fields it cannot change
instead of ignoring them; a number too long or too large for the JSON reader is a 400
that says so; a boolean of a request body is JSON true or false and nothing else."""

from __future__ import annotations

from datetime import date

import pytest
from rest_framework.test import APIClient

from tests.support import api_as

pytestmark = pytest.mark.django_db


def client(user=None) -> APIClient:
    return api_as(user, raise_request_exception=False)


def error(response, status: int = 400) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:400])
    body = response.json()
    assert isinstance(body["code"], str) and isinstance(body["message"], str) and body["message"]
    return body


# -- 1. an empty filter value is the filter left out -------------------------------------------

#: (the path with an empty filter, the same path without it)
EMPTY_FILTERS = [
    ("/api/v1/ratings/?variant=", "/api/v1/ratings/"),
    ("/api/v1/ratings/?club=", "/api/v1/ratings/"),
    ("/api/v1/ratings/?variant=&club=", "/api/v1/ratings/"),
    ("/api/v1/ratings/players/owner/history/?list=", "/api/v1/ratings/players/owner/history/"),
    ("/api/v1/ratings/players/owner/history/?variant=", "/api/v1/ratings/players/owner/history/"),
    ("/api/v1/ratings/players/owner/history/?variant=&list=", "/api/v1/ratings/players/owner/history/"),
    ("/api/v1/rule-sets/?all_versions=", "/api/v1/rule-sets/"),
    ("/api/v1/rule-sets/?variant=", "/api/v1/rule-sets/"),
    ("/api/v1/rule-sets/?all_versions=&variant=", "/api/v1/rule-sets/"),
    ("/api/v1/games/?status=", "/api/v1/games/"),
    ("/api/v1/games/?status=,", "/api/v1/games/"),
    ("/api/v1/games/?variant=&player=", "/api/v1/games/"),
    ("/api/v1/tournaments/?club=&status=", "/api/v1/tournaments/"),
    ("/api/v1/sections/?tournament=", "/api/v1/sections/"),
    ("/api/v1/clubs/?limit=&offset=", "/api/v1/clubs/"),
    ("/api/v1/accounts/notices/?unread=", "/api/v1/accounts/notices/"),
    ("/api/v1/sections/{section}/standings/?format=", "/api/v1/sections/{section}/standings/"),
]


@pytest.mark.parametrize(("empty", "left_out"), EMPTY_FILTERS)
def test_an_empty_filter_is_the_filter_left_out(api_world, empty, left_out):
    from games import rule_sets

    # A second version, so that all_versions shows a difference if it were taken as true.
    rule_sets.revise_rule_set(rule_set=api_world["rule_set"], created_by=api_world["owner"], name="House 2")
    section = api_world["section"].pk
    asker = client(api_world["owner"])
    answer = asker.get(empty.format(section=section))
    assert answer.status_code == 200, (empty, answer.content[:300])
    assert answer.json() == asker.get(left_out.format(section=section)).json()


def test_an_empty_all_versions_lists_the_current_versions_only(api_world):
    from games import rule_sets

    rule_sets.revise_rule_set(rule_set=api_world["rule_set"], created_by=api_world["owner"], name="House 2")
    listed = client().get("/api/v1/rule-sets/?all_versions=").json()["results"]
    assert listed and all(row["is_current"] for row in listed)
    everything = client().get("/api/v1/rule-sets/?all_versions=true").json()["results"]
    assert len(everything) == len(listed) + 1


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("/api/v1/ratings/?variant=nope", "unknown-variant"),
        ("/api/v1/ratings/players/owner/history/?list=nope", "unknown-list"),
        ("/api/v1/rule-sets/?all_versions=maybe", "bad-filter"),
        ("/api/v1/games/?status=nope", "bad-filter"),
    ],
)
def test_a_filter_with_a_wrong_value_is_still_refused(api_world, url, code):
    assert error(client().get(url))["code"] == code


# -- 2. PATCH refuses what it cannot change, instead of ignoring it ----------------------------


def test_patching_the_date_of_birth_is_refused_and_changes_nothing(api_world):
    owner = api_world["owner"]
    response = client(owner).patch("/api/v1/accounts/me/", {"display_name": "New name", "date_of_birth": "2015-01-01"},
                                   format="json")
    body = error(response)
    assert body["code"] == "read-only-field"
    assert "date_of_birth" in body["message"] and "fixed after sign-up" in body["message"]
    assert "staff" in body["message"]
    assert list(body["fields"]) == ["date_of_birth"]
    owner.profile.refresh_from_db()
    assert owner.profile.date_of_birth == date(1990, 5, 17) and owner.profile.display_name != "New name"


@pytest.mark.parametrize(("field", "value"), [("username", "root"), ("can_play", False)])
def test_patching_another_read_only_field_of_the_profile_is_refused(api_world, field, value):
    body = error(client(api_world["owner"]).patch("/api/v1/accounts/me/", {field: value}, format="json"))
    assert body["code"] == "read-only-field" and field in body["message"] and field in body["fields"]
    api_world["owner"].refresh_from_db()
    assert api_world["owner"].username == "owner"


@pytest.mark.parametrize("field", ["email", "is_staff", "colour"])
def test_patching_a_field_the_profile_does_not_have_is_refused(api_world, field):
    member = api_world["member"]
    assert not member.is_staff
    body = error(client(member).patch("/api/v1/accounts/me/", {field: True, "display_name": "X"}, format="json"))
    assert body["code"] == "unknown-field" and field in body["message"] and field in body["fields"]
    assert "display_name" in body["message"]  # what can be changed
    member.refresh_from_db()
    member.profile.refresh_from_db()
    assert not member.is_staff and member.profile.display_name != "X"


def test_patching_what_may_change_still_works(api_world):
    answer = client(api_world["owner"]).patch("/api/v1/accounts/me/", {"display_name": "Harbour owner"},
                                              format="json")
    assert answer.status_code == 200 and answer.json()["display_name"] == "Harbour owner"


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("club", "elsewhere", "read-only-field"),
        ("status", "running", "read-only-field"),
        ("draft", True, "read-only-field"),
        ("slug", "other", "read-only-field"),
        ("finished_at", "2030-01-01T00:00:00Z", "read-only-field"),
        ("sections", [], "read-only-field"),
        ("colour", "red", "unknown-field"),
    ],
)
def test_patching_a_tournament_refuses_what_it_cannot_change(api_world, field, value, code):
    assert_patch_refused(api_world, "tournament", "tournaments", field, value, code, name_kept="Open")


@pytest.mark.parametrize(
    ("field", "value", "code"),
    [
        ("tournament", 1, "read-only-field"),
        ("status", "finished", "read-only-field"),
        ("current_round", 7, "read-only-field"),
        ("paused_at", "2030-01-01T00:00:00Z", "read-only-field"),
        ("entries", 3, "read-only-field"),
        ("colour", "red", "unknown-field"),
    ],
)
def test_patching_a_section_refuses_what_it_cannot_change(api_world, field, value, code):
    assert_patch_refused(api_world, "section", "sections", field, value, code, name_kept="Main")


def assert_patch_refused(api_world, kind: str, collection: str, field: str, value, code: str, *, name_kept: str):
    """A PATCH of a rename with one field it cannot change: refused with ``code``, naming
    the field, and the name is not changed either."""
    row = api_world[kind]
    path = f"/api/v1/{collection}/{row.pk}/"
    body = error(client(api_world["owner"]).patch(path, {"name": "Renamed", field: value}, format="json"))
    assert body["code"] == code and field in body["message"] and list(body["fields"]) == [field]
    row.refresh_from_db()
    assert row.name == name_kept


def test_a_patch_refused_for_its_fields_is_still_for_organisers_only(api_world):
    """The field check comes after the permission: a stranger learns nothing from it."""
    path = f"/api/v1/tournaments/{api_world['tournament'].pk}/"
    body = error(client(api_world["member"]).patch(path, {"status": "running"}, format="json"), 403)
    assert body["code"] == "not-organiser"


# -- 3 and 4. numbers the JSON reader cannot hold ------------------------------------------------


@pytest.mark.parametrize("sign", ["", "-"])
def test_an_integer_too_long_for_the_reader_is_a_400_that_says_so(api_world, sign):
    from games.models import Game

    before = Game.objects.count()
    body = '{"variant": "classic", "seat": ' + sign + "9" * 5000 + "}"
    answer = error(client(api_world["owner"]).post("/api/v1/games/", body, content_type="application/json"))
    assert answer["code"] == "parse_error"
    assert "number in the body is too long" in answer["message"]
    assert "sys." not in answer["message"] and "set_int_max_str_digits" not in answer["message"]
    assert Game.objects.count() == before


def test_a_long_integer_the_reader_can_hold_still_reaches_the_field(api_world):
    body = '{"variant": "classic", "seat": ' + "9" * 4000 + "}"
    answer = error(client(api_world["owner"]).post("/api/v1/games/", body, content_type="application/json"))
    assert answer["code"] == "invalid" and "seat" in answer["fields"]


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1" * 400 + ".5"])
def test_a_number_too_large_to_be_finite_is_a_400_that_says_so(api_world, number):
    game = api_world["game"]
    body = '{"ply": 1, "move": {"cell": ' + number + "}}"
    answer = error(client(api_world["member"]).post(f"/api/v1/games/{game.pk}/moves/", body,
                                                    content_type="application/json"))
    assert answer["code"] == "parse_error"
    assert "too large" in answer["message"] and "finite" in answer["message"]
    assert "valid JSON" not in answer["message"]
    game.refresh_from_db()
    assert game.ply == 1


def test_large_finite_numbers_still_reach_the_engine(api_world):
    game = api_world["game"]
    body = '{"ply": 1, "move": {"cell": 1e300}}'
    answer = error(client(api_world["member"]).post(f"/api/v1/games/{game.pk}/moves/", body,
                                                    content_type="application/json"))
    assert answer["code"] != "parse_error"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_no_json_numbers_in_a_body_as_in_a_frame(api_world, constant):
    """The body's numbers are read as a websocket frame's (accounts.json_numbers;
    tests/config/test_socket_numbers.py): one way, said the same way."""
    game = api_world["game"]
    body = '{"ply": 1, "move": {"cell": ' + constant + "}}"
    answer = error(client(api_world["member"]).post(f"/api/v1/games/{game.pk}/moves/", body,
                                                    content_type="application/json"))
    assert answer == {"code": "parse_error",
                      "message": f"{constant} in the body is not a JSON number: JSON has no NaN or Infinity."}
    game.refresh_from_db()
    assert game.ply == 1


# -- 5. booleans are JSON true or false ----------------------------------------------------------

NOT_BOOLEANS = ["yes", "true", "True", "on", "1", 1, 0, "", None, [], {}]


@pytest.mark.parametrize("value", NOT_BOOLEANS)
def test_rated_is_json_true_or_false_only(api_world, value):
    from games.models import Game

    before = Game.objects.count()
    body = error(client(api_world["owner"]).post("/api/v1/games/", {"variant": "classic", "rated": value},
                                                 format="json"))
    assert body["code"] == "invalid" and "rated" in body["fields"]
    assert "true or false" in body["message"]
    assert Game.objects.count() == before


@pytest.mark.parametrize("value", [True, False])
def test_rated_true_or_false_is_taken(api_world, value):
    answer = client(api_world["owner"]).post("/api/v1/games/", {"variant": "classic", "rated": value,
                                                                "opponent": "member"}, format="json")
    assert answer.status_code == 201, answer.content[:300]
    assert answer.json()["rules"] is not None


def test_a_form_body_still_says_rated_in_text(api_world):
    """A form (the browsable API's) has only text: "true" and "false" stand for the two."""
    made = client(api_world["owner"]).post("/api/v1/games/", {"variant": "classic", "rated": "true",
                                                              "opponent": "member"})
    assert made.status_code == 201, made.content[:300]
    refused = error(client(api_world["owner"]).post("/api/v1/games/", {"variant": "classic", "rated": "yes"}))
    assert "rated" in refused["fields"]


@pytest.mark.parametrize("field", ["rated", "consolation", "streak_bonus", "members_only", "third_place"])
def test_the_boolean_settings_of_a_section_are_json_true_or_false_only(api_world, field):
    from league.models import Section

    before = Section.objects.count()
    body = {"tournament": api_world["tournament"].pk, "name": "Side", "format": "swiss", "variant": "classic",
            field: "yes"}
    answer = error(client(api_world["owner"]).post("/api/v1/sections/", body, format="json"))
    assert answer["code"] == "invalid" and field in answer["fields"]
    assert Section.objects.count() == before
    patched = error(client(api_world["owner"]).patch(f"/api/v1/sections/{api_world['section'].pk}/", {field: 1},
                                                     format="json"))
    assert patched["code"] == "invalid" and field in patched["fields"]


def test_a_tournament_draft_is_json_true_or_false_only(api_world):
    body = {"club": "harbour", "name": "Cup", "starts_at": "2031-01-01T10:00:00Z", "draft": "yes"}
    answer = error(client(api_world["owner"]).post("/api/v1/tournaments/", body, format="json"))
    assert answer["code"] == "invalid" and "draft" in answer["fields"]
    body["draft"] = True
    assert client(api_world["owner"]).post("/api/v1/tournaments/", body, format="json").status_code == 201


@pytest.mark.parametrize(("body", "words"), [
    ("garbage", "The body is not valid JSON: expecting value at line 1, column 1."),
    ('{"ply": 1,', "The body is not valid JSON: expecting property name enclosed in double quotes at line 1, "
                   "column 11."),
    (b'{"ply": "\xff"}', "The body is not UTF-8 text: send JSON encoded as UTF-8."),
])
def test_a_body_that_is_not_json_is_refused_in_words(api_world, body, words):
    """DRF said "JSON parse error - Expecting value: line 1 column 1 (char 0)" (a
    walkthrough's bot developer); the code stays parse_error."""
    game = api_world["game"]
    answer = error(client(api_world["member"]).post(f"/api/v1/games/{game.pk}/moves/", body,
                                                    content_type="application/json"))
    assert answer["code"] == "parse_error" and answer["message"].startswith(words), answer
    game.refresh_from_db()
    assert game.ply == 1
