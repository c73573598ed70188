"""Every list's query filters, as the schema (/api/schema/) documents them, from the
outside: a filter that takes one of a fixed set answers a value outside it with 400,
naming the parameter and the values it takes, never an empty list as if nothing matched
(an outside probe's ``/api/v1/tournaments/?status=bogus``); a true-or-false or id filter
refuses what it cannot read; only the filters that match text may match nothing.
docs/api.md, "Lists"; docs/security.md, "Bad input"."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.support import api_as

pytestmark = pytest.mark.django_db

#: The filters that match text (a name, a slug, a search), where a value naming nothing
#: is an empty list by decision (docs/security.md, "Filters"); any other filter of a list
#: takes a set of values, true or false, or a number, and refuses anything else.
TEXT_FILTERS = {
    ("/api/v1/accounts/players/", "q"),  # a search: part of a name
    ("/api/v1/games/", "player"),  # a username
    ("/api/v1/tournaments/", "club"),  # a club's slug
    ("/api/v1/ratings/", "club"),  # a club's slug, answered 404 when none has it
}
#: Filters a list's view checks itself, with its own code, before the list's check.
OWN_CODES = {
    ("/api/v1/games/", "status"): "bad-filter",  # a comma-separated list of statuses
    ("/api/v1/ratings/", "variant"): "unknown-variant",
    ("/api/v1/ratings/players/{username}/history/", "variant"): "unknown-variant",
    ("/api/v1/ratings/players/{username}/history/", "list"): "unknown-list",
}


def schema() -> dict:
    response = APIClient().get("/api/schema/?format=json")
    assert response.status_code == 200
    return response.json()


def list_filters() -> list[tuple[str, dict]]:
    """(path, parameter) of every query parameter of every GET, bar paging."""
    found = []
    for path, operations in schema()["paths"].items():
        for parameter in operations.get("get", {}).get("parameters", []):
            if parameter["in"] == "query" and parameter["name"] not in ("limit", "offset"):
                found.append((path, parameter))
    return found


def real_path(path: str, world) -> str:
    return path.replace("{username}", world["owner"].username).replace("{id}", str(world["section"].pk))


def test_the_probes_filter_is_refused_naming_it_and_its_values(api_world):
    response = api_as(api_world["owner"]).get("/api/v1/tournaments/?status=bogus")
    assert response.status_code == 400
    body = response.json()
    allowed = "draft, registration, running, finished, cancelled"
    assert body == {
        "code": "bad-filter",
        "message": f"status: One of {allowed}; not 'bogus'.",
        "fields": {"status": [f"One of {allowed}; not 'bogus'."]},
    }


@pytest.mark.parametrize("path", ["/api/v1/games/", "/api/v1/rule-sets/"])
def test_a_variant_that_does_not_exist_is_refused_not_an_empty_list(api_world, path):
    body = APIClient().get(path, {"variant": "chess"}).json()
    assert body["code"] == "bad-filter" and list(body["fields"]) == ["variant"]
    assert body["message"].startswith("variant: One of classic,") and "tic-tac-two" in body["message"]


def test_each_value_of_a_set_is_taken_and_filters(api_world):
    owner = api_as(api_world["owner"])
    for status in ("draft", "registration", "running", "finished", "cancelled"):
        response = owner.get("/api/v1/tournaments/", {"status": status})
        assert response.status_code == 200
        assert all(row["status"] == status for row in response.json()["results"])
    listed = owner.get("/api/v1/tournaments/", {"status": api_world["tournament"].status}).json()
    assert [row["id"] for row in listed["results"]] == [api_world["tournament"].pk]
    for path in ("/api/v1/games/", "/api/v1/rule-sets/"):
        response = owner.get(path, {"variant": "classic"})
        assert response.status_code == 200 and response.json()["results"]
        assert owner.get(path, {"variant": "tic-tac-two"}).json()["results"] == []  # none made


def test_every_value_given_is_checked_and_an_empty_one_is_left_out(api_world):
    owner = api_as(api_world["owner"])
    assert owner.get("/api/v1/tournaments/?status=&status=bogus").status_code == 400
    assert owner.get("/api/v1/tournaments/?status=bogus&status=running").status_code == 400
    assert owner.get("/api/v1/tournaments/?status=").status_code == 200


def test_the_schema_gives_each_set(api_world):
    sets = {(path, parameter["name"]): parameter["schema"].get("enum") for path, parameter in list_filters()}
    assert sets[("/api/v1/tournaments/", "status")] == ["draft", "registration", "running", "finished",
                                                         "cancelled"]
    for path in ("/api/v1/games/", "/api/v1/rule-sets/", "/api/v1/ratings/",
                 "/api/v1/ratings/players/{username}/history/"):
        assert "classic" in sets[(path, "variant")]


def test_every_list_filter_of_the_schema_refuses_a_value_it_cannot_take(api_world):
    """The schema's every query filter: one that is not text refuses a wrong value (400,
    or 404 for an unknown ``format`` as every download does), in the error shape and
    naming the parameter. A new filter fails here until it is decided."""
    owner = api_as(api_world["owner"])
    checked = set()
    for path, parameter in list_filters():
        name, kind = parameter["name"], parameter["schema"]
        if (path, name) in TEXT_FILTERS:
            assert "enum" not in kind and kind.get("type") == "string", (path, name)
            continue
        wrong = {"boolean": "maybe", "integer": "abc"}.get(kind.get("type"), "bogus")
        response = owner.get(real_path(path, api_world), {name: wrong})
        body = response.json()
        assert set(body) <= {"code", "message", "fields"} and body["message"], (path, name, body)
        if name == "format":
            assert response.status_code == 404 and body["code"] == "not_found", (path, body)
        else:
            assert response.status_code == 400, (path, name, response.status_code)
            assert body["code"] == OWN_CODES.get((path, name), body["code"])
            assert name in body["message"] or name in body.get("fields", {}), (path, name, body)
            if "enum" in kind and (path, name) not in OWN_CODES:
                assert body["code"] == "bad-filter" and all(value in body["message"] for value in kind["enum"])
        checked.add((path, name))
    assert ("/api/v1/tournaments/", "status") in checked
    assert len(checked) >= 10
