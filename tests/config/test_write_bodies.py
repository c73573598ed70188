"""A write's body holds only the fields its operation documents (/api/schema/), from the
outside: a POST or PUT naming a field it does not take is refused as a PATCH is, 400
``unknown-field`` (or ``read-only-field`` for a field of the answer), naming it, with
nothing done; an outside probe found create endpoints dropping such fields in silence
(a typo's ``"ratd": true`` made an unrated game). docs/api.md, "Bodies"."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from games.models import Game, RuleSet
from league.models import Section, Tournament
from tests.factories import SignupFactory as signup_data
from tests.support import api_as

pytestmark = pytest.mark.django_db

LATER = "2099-06-01T10:00:00Z"


def refused(response, code: str, field: str) -> dict:
    assert response.status_code == 400, (response.status_code, response.content[:400])
    body = response.json()
    assert body["code"] == code, body
    assert list(body["fields"]) == [field] and body["message"].startswith(f"{field}: "), body
    return body


def counts() -> tuple[int, ...]:
    return (Game.objects.count(), RuleSet.objects.count(), Tournament.objects.count(), Section.objects.count(),
            User.objects.count())


def test_a_typo_in_a_new_game_is_refused_not_dropped(api_world):
    before = counts()
    body = refused(api_as(api_world["owner"]).post("/api/v1/games/", {"variant": "classic", "ratd": True},
                                                   format="json"), "unknown-field", "ratd")
    assert "There is no such field to set here; these can be: " in body["message"]
    assert all(name in body["message"] for name in ("variant", "opponent", "rated"))
    assert counts() == before


def create_requests(world) -> list[tuple[str, str, str, dict]]:
    """(method, the schema's path, the path, a body this operation takes) of every write
    that makes or sets something from a body."""
    game, section, tournament = world["game"].pk, world["section"].pk, world["tournament"].pk
    return [
        ("post", "/api/v1/games/", "/api/v1/games/", {"variant": "classic"}),
        ("post", "/api/v1/rule-sets/", "/api/v1/rule-sets/", {"name": "Mine", "variant": "classic"}),
        ("post", "/api/v1/rule-sets/{id}/revise/", f"/api/v1/rule-sets/{world['rule_set'].pk}/revise/",
         {"name": "Mine 2"}),
        ("post", "/api/v1/tournaments/", "/api/v1/tournaments/",
         {"club": world["club"].slug, "name": "Cup", "starts_at": LATER}),
        ("post", "/api/v1/sections/", "/api/v1/sections/",
         {"tournament": tournament, "name": "B", "format": "swiss", "variant": "classic"}),
        ("post", "/api/v1/sections/{id}/entries/", f"/api/v1/sections/{section}/entries/", {"username": "member"}),
        ("post", "/api/v1/sections/{id}/withdraw/", f"/api/v1/sections/{section}/withdraw/", {"reason": "ill"}),
        ("post", "/api/v1/sections/{id}/swiss-pairing/", f"/api/v1/sections/{section}/swiss-pairing/",
         {"swiss_system": "dutch"}),
        ("post", "/api/v1/games/{id}/moves/", f"/api/v1/games/{game}/moves/", {"ply": 1, "move": {"cell": 1}}),
        ("put", "/api/v1/games/{id}/note/", f"/api/v1/games/{game}/note/", {"text": "note"}),
    ]


@pytest.mark.parametrize("index", range(10))
def test_every_create_refuses_a_field_it_does_not_take_and_does_nothing(api_world, index):
    method, _, path, body = create_requests(api_world)[index]
    before = counts()
    owner = api_as(api_world["owner"])
    refused(getattr(owner, method)(path, {**body, "colour": "red"}, format="json"), "unknown-field", "colour")
    assert counts() == before


def test_sign_up_and_log_in_refuse_a_field_they_do_not_take(api_world):
    before = counts()
    anonymous = APIClient(REMOTE_ADDR="10.9.0.1")
    refused(anonymous.post("/api/v1/accounts/signup/", {**signup_data(), "is_staff": True}, format="json"),
            "unknown-field", "is_staff")
    refused(anonymous.post("/api/v1/accounts/signup/", {**signup_data(), "can_play": True}, format="json"),
            "read-only-field", "can_play")
    assert counts() == before
    refused(anonymous.post("/api/v1/accounts/login/", {"username": "owner", "password": "x", "remember": True},
                           format="json"), "unknown-field", "remember")


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/v1/tournaments/", {"status": "running"}, "status"),
        ("/api/v1/tournaments/", {"finished_at": LATER}, "finished_at"),
        ("/api/v1/rule-sets/", {"is_standard": True}, "is_standard"),
        ("/api/v1/rule-sets/", {"version": 9}, "version"),
        ("/api/v1/games/", {"status": "finished"}, "status"),
    ],
)
def test_a_field_of_the_answer_is_read_only_in_a_create(api_world, path, body, field):
    base = {"/api/v1/tournaments/": {"club": "harbour", "name": "Cup", "starts_at": LATER},
            "/api/v1/rule-sets/": {"name": "Mine", "variant": "classic"},
            "/api/v1/games/": {"variant": "classic"}}[path]
    before = counts()
    answer = refused(api_as(api_world["owner"]).post(path, {**base, **body}, format="json"), "read-only-field", field)
    assert "This cannot be set here; it is in the answer, and the platform sets it." in answer["message"]
    assert counts() == before


def test_the_same_bodies_without_the_extra_field_still_work(api_world):
    owner = api_as(api_world["owner"])
    assert owner.post("/api/v1/games/", {"variant": "classic"}, format="json").status_code == 201
    assert owner.post("/api/v1/rule-sets/", {"name": "Mine", "variant": "classic"}, format="json").status_code == 201
    made = owner.post("/api/v1/tournaments/", {"club": "harbour", "name": "Cup", "starts_at": LATER}, format="json")
    assert made.status_code == 201, made.json()


def test_a_form_body_is_held_to_the_same_fields_and_may_carry_its_csrf_token(api_world):
    owner = api_as(api_world["owner"])
    refused(owner.post("/api/v1/games/", {"variant": "classic", "colour": "red"}), "unknown-field", "colour")
    made = owner.post("/api/v1/games/", {"variant": "classic", "csrfmiddlewaretoken": "x"})
    assert made.status_code == 201, made.json()


def test_a_patch_keeps_its_own_reasons(api_world):
    path = f"/api/v1/tournaments/{api_world['tournament'].pk}/"
    body = refused(api_as(api_world["owner"]).patch(path, {"colour": "red"}, format="json"), "unknown-field", "colour")
    assert "There is no such field to change here; these can be: " in body["message"]


def test_every_documented_write_body_is_held_to_its_fields(api_world):
    """Every POST and PUT of the schema with a body: an unknown field is refused, naming it
    (the ones above are the creates; this is the list of them all, so a new one is held too)."""
    schema = APIClient().get("/api/schema/?format=json").json()
    documented = {(method, path) for path, operations in schema["paths"].items()
                  for method, operation in operations.items()
                  if method in ("post", "put") and operation.get("requestBody")}
    tried = {(method, documented_path) for method, documented_path, _, _ in create_requests(api_world)}
    sign_in = {("post", "/api/v1/accounts/signup/"), ("post", "/api/v1/accounts/login/")}
    version = {("post", "/api/v1/matches/{id}/version/")}  # its own test below
    assert documented == tried | sign_in | version


def test_the_match_version_refuses_a_field_it_does_not_take(api_world):
    from tests.factories import official_match_to_choose

    match = official_match_to_choose(api_world["owner"], api_world["member"])  # the owner chooses
    path = f"/api/v1/matches/{match.pk}/version/"
    refused(api_as(api_world["owner"]).post(path, {"version": "2.0", "colour": "red"}, format="json"),
            "unknown-field", "colour")
    match.refresh_from_db()
    assert match.state["stage"] == "version"  # not chosen
