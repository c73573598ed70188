"""The games REST API through the real stack: URLs, DRF authentication, serializers,
services, the engine and the database. Tokens are real DRF tokens; the AI's moves come
from the Celery task function, run here the way a worker would run it."""

from __future__ import annotations

import hashlib
import json
import random
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.http import HttpRequest
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import services as account_services
from accounts.models import GuardianConsent
from games import rule_sets, services, starting, tasks
from games.models import Game, PrivateNote, RuleSet
from games.rules import get_variant, variant_slugs
from tests.factories import PASSWORD, SuperuserFactory
from tests.processes import (
    WORKER_COMMAND,
    free_port,
    running,
    runplatform_command,
    scratch_database,
    uvicorn_command,
    wait_for_port,
)
from tests.support import token_client as client_for
from tests.support import years_ago

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"


@pytest.fixture(autouse=True)
def ai_queue(monkeypatch) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Records what the services enqueue for the AI instead of sending it to a broker
    (no worker runs in these tests); a test drains it the way a worker would."""
    sent: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(tasks.play_ai_move, "apply_async", lambda args, **kw: sent.append((tuple(args), kw)))
    return sent


def create(client: APIClient, **body) -> Any:
    return client.post(GAMES, body, format="json")


def move(client: APIClient, game_id: int, ply: int, the_move: Any) -> Any:
    return client.post(f"{GAMES}{game_id}/moves/", {"ply": ply, "move": the_move}, format="json")


def started_classic(alice, bob) -> tuple[int, APIClient, APIClient]:
    a, b = client_for(alice), client_for(bob)
    game_id = create(a, variant="classic", opponent="bob").json()["id"]
    assert b.post(f"{GAMES}{game_id}/accept/").status_code == 200
    return game_id, a, b


def assert_error(response, status: int, code: str) -> dict:
    body = response.json()
    assert response.status_code == status, body
    assert body["code"] == code and body["message"], body
    return body


# -- the schema --------------------------------------------------------------------------


def test_the_schema_generates_without_warnings_and_documents_the_games_api(tmp_path: Path):
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--fail-on-warn", "--file", str(out))
    schema = yaml.safe_load(out.read_text())
    paths = schema["paths"]
    for path in (
        "/api/v1/games/",
        "/api/v1/games/{id}/",
        "/api/v1/games/{id}/moves/",
        "/api/v1/games/{id}/note/",
        "/api/v1/games/{id}/claim-timeout/",
        "/api/v1/rule-sets/",
        "/api/v1/rule-sets/{id}/revise/",
        "/api/v1/variants/",
    ):
        assert path in paths, path
    play = paths["/api/v1/games/{id}/moves/"]["post"]
    body_ref = play["requestBody"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
    assert set(schema["components"]["schemas"][body_ref]["required"]) == {"ply", "move"}
    conflict = play["responses"]["409"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
    assert "game" in schema["components"]["schemas"][conflict]["properties"]
    create_ref = paths["/api/v1/games/"]["post"]["requestBody"]["content"]["application/json"]["schema"][
        "$ref"
    ]
    fields = schema["components"]["schemas"][create_ref.split("/")[-1]]["properties"]
    assert {"variant", "options", "rule_set", "opponent", "ai_level", "seat"} <= set(fields)


# -- variants and house-rule sets -----------------------------------------------------------


def test_variants_list_each_slug_name_and_options_schema():
    body = APIClient().get("/api/v1/variants/").json()
    assert [v["slug"] for v in body] == variant_slugs()
    classic = next(v for v in body if v["slug"] == "classic")
    assert classic["name"] == get_variant("classic").name
    assert classic["options_schema"]["properties"]["symbols"]["default"] == ["X", "O"]
    assert classic["default_options"] == get_variant("classic").default_options()


class TestRuleSets:
    def test_create_validates_options_with_the_engine(self, alice):
        client = client_for(alice)
        response = client.post(
            "/api/v1/rule-sets/",
            {"name": "O first", "variant": "classic", "options": {"first": "O"}},
            format="json",
        )
        assert response.status_code == 201, response.json()
        body = response.json()
        assert body["options"] == {"symbols": ["X", "O"], "first": "O"}  # defaults filled in by the engine
        assert (body["version"], body["is_current"], body["created_by"]) == (1, True, "alice")
        bad = client.post(
            "/api/v1/rule-sets/",
            {"name": "Z", "variant": "classic", "options": {"symbols": ["X", "Z"]}},
            format="json",
        )
        assert_error(bad, 400, "bad-options")
        unknown = client.post("/api/v1/rule-sets/", {"name": "?", "variant": "chess"}, format="json")
        assert_error(unknown, 400, "unknown-variant")

    @pytest.mark.parametrize("depth", [17, 470, 600])
    def test_house_rules_nested_deep_are_refused_not_a_500(self, alice, depth):
        """Some 470 levels of nesting were a RecursionError in validate_options (its
        deepcopy), a 500, on each of the three writes that take house rules (attacker probe)."""
        nested: Any = 1
        for _ in range(depth):
            nested = {"a": nested}
        client = client_for(alice)
        mine = client.post("/api/v1/rule-sets/", {"name": "Mine", "variant": "classic"}, format="json").json()
        for response in (
            client.post("/api/v1/rule-sets/", {"name": "Deep", "variant": "classic", "options": nested}, format="json"),
            client.post(f"/api/v1/rule-sets/{mine['id']}/revise/", {"options": nested}, format="json"),
            create(client, variant="classic", ai_level="random", options=nested),
        ):
            assert assert_error(response, 400, "bad-options")["message"] == "House rules nest at most 16 levels deep."
        assert not RuleSet.objects.filter(name="Deep").exists()
        assert RuleSet.objects.filter(family=mine["family"]).count() == 1

    def test_an_error_message_quotes_at_most_500_characters(self, alice):
        """A refusal that quotes what was sent came back as long as it: 200,000 unknown
        house-rule keys were a 2.1 MB message (attacker probe)."""
        options = {f"key{n}": n for n in range(5000)}
        response = client_for(alice).post("/api/v1/rule-sets/", {"name": "Many", "variant": "classic",
                                                                   "options": options}, format="json")
        message = assert_error(response, 400, "bad-options")["message"]
        assert len(message) == 500 and message.endswith("…"), len(message)
        assert len(response.content) < 1000

    @pytest.mark.parametrize("field", ["seconds_per_move", "seconds_per_game", "no_show_seconds", "match_games"])
    @pytest.mark.parametrize("value", [2.0, "2.0", "2 ", "40", True])
    def test_a_rules_whole_numbers_are_whole_numbers(self, alice, field, value):
        """As a ply is (WholeNumberField): DRF's own field took 2.0 and "2.0" for 2."""
        response = client_for(alice).post(
            "/api/v1/rule-sets/", {"name": "Odd", "variant": "classic", field: value}, format="json")
        assert response.status_code == 400, response.json()
        assert field in response.json()["message"]

    @pytest.mark.parametrize("value", [0, 1, 29])
    def test_a_no_show_grace_under_the_minimum_is_refused_in_words(self, alice, value):
        """0 made every game of the set forfeit at once: nobody could ever play."""
        client = client_for(alice)
        created = client.post("/api/v1/rule-sets/", {"name": "Instant", "variant": "classic",
                                                     "no_show_seconds": value}, format="json")
        assert created.status_code == 400, created.json()
        assert "at least 30 seconds" in created.json()["message"]
        mine = client.post("/api/v1/rule-sets/", {"name": "Mine", "variant": "classic"}, format="json").json()
        revised = client.post(f"/api/v1/rule-sets/{mine['id']}/revise/", {"no_show_seconds": value}, format="json")
        assert revised.status_code == 400 and "at least 30 seconds" in revised.json()["message"], revised.json()
        assert not RuleSet.objects.filter(name="Instant").exists()
        assert RuleSet.objects.get(family=mine["family"]).no_show_seconds == 300  # no new version

    @pytest.mark.parametrize("name", ["Blitz\u202e zitlB", "\u200b", "\u3164\u3164"])
    def test_a_rule_sets_name_holds_no_hidden_character(self, alice, name):
        """Any player names a set, and lobbies, forms and game pages show it: a right-to-left
        override turned the rest of their line around (attacker probe)."""
        client = client_for(alice)
        assert_error(client.post("/api/v1/rule-sets/", {"name": name, "variant": "classic"}, format="json"),
                     400, "bad-name")
        assert not RuleSet.objects.filter(name=name).exists()
        mine = client.post("/api/v1/rule-sets/", {"name": "Mine", "variant": "classic"}, format="json").json()
        assert_error(client.post(f"/api/v1/rule-sets/{mine['id']}/revise/", {"name": name}, format="json"),
                     400, "bad-name")
        assert RuleSet.objects.filter(family=mine["family"]).count() == 1  # no new version

    def test_creating_needs_authentication(self):
        response = APIClient().post("/api/v1/rule-sets/", {"name": "x", "variant": "classic"}, format="json")
        assert_error(response, 401, "not_authenticated")

    def test_revise_makes_a_new_version_only_for_its_author(self, alice, bob):
        client = client_for(alice)
        first = client.post(
            "/api/v1/rule-sets/",
            {"name": "Quick", "variant": "classic", "seconds_per_move": 30},
            format="json",
        ).json()
        assert_error(
            client_for(bob).post(f"/api/v1/rule-sets/{first['id']}/revise/", {"name": "Mine"}, format="json"),
            403,
            "not-the-author",
        )
        response = client.post(
            f"/api/v1/rule-sets/{first['id']}/revise/", {"seconds_per_move": 10}, format="json"
        )
        assert response.status_code == 201, response.json()
        second = response.json()
        assert (second["family"], second["version"], second["seconds_per_move"], second["name"]) == (
            first["family"],
            2,
            10,
            "Quick",
        )
        assert not RuleSet.objects.get(pk=first["id"]).is_current
        current = client.get("/api/v1/rule-sets/?variant=classic").json()["results"]
        assert [r["id"] for r in current] == [second["id"]]
        every = client.get("/api/v1/rule-sets/?all_versions=true").json()["results"]
        assert {r["id"] for r in every} == {first["id"], second["id"]}
        assert {r["id"] for r in client.get("/api/v1/rule-sets/?all_versions=false").json()["results"]} >= {second["id"]}
        assert first["id"] not in {r["id"] for r in client.get("/api/v1/rule-sets/?all_versions=0").json()["results"]}
        # Not a yes or a no: refused, where it used to be read as false.
        assert_error(client.get("/api/v1/rule-sets/?all_versions=banana"), 400, "bad-filter")
        assert client.get(f"/api/v1/rule-sets/{first['id']}/").json()["version"] == 1
        bad = client.post(
            f"/api/v1/rule-sets/{second['id']}/revise/", {"options": {"first": "Q"}}, format="json"
        )
        assert_error(bad, 400, "bad-options")
        assert_error(client.get("/api/v1/rule-sets/999999/"), 404, "not_found")

    def test_a_game_keeps_the_rules_of_its_set(self, alice):
        client = client_for(alice)
        rules = client.post(
            "/api/v1/rule-sets/",
            {"name": "O first", "variant": "classic", "options": {"first": "O"}},
            format="json",
        ).json()
        game = create(client, rule_set=rules["id"], ai_level="random").json()
        assert game["rules"]["id"] == rules["id"] and game["rules"]["options"]["first"] == "O"
        assert game["view"]["first"] == "O"
        assert_error(create(client, rule_set=999999), 400, "no-such-rule-set")
        # A set's id is a whole number, as strict as a move's ply: not 2.0, "2.0" or true.
        for not_an_id in (float(rules["id"]), str(rules["id"]), f"{rules['id']}.0", f"{rules['id']} ", True,
                          [rules["id"]]):
            invalid = assert_error(create(client, rule_set=not_an_id, ai_level="random"), 400, "invalid")
            assert invalid["fields"]["rule_set"] == ["A valid integer is required."], not_an_id
        assert_error(create(client, rule_set=rules["id"], variant="tactic-toe"), 400, "bad-request")
        # Once revised, only the version in force makes games.
        client.post(f"/api/v1/rule-sets/{rules['id']}/revise/", {"options": {"first": "X"}}, format="json")
        before = Game.objects.count()
        assert_error(create(client, rule_set=rules["id"], ai_level="random"), 400, "old-rule-set")
        assert Game.objects.count() == before


# -- creating, joining, and who may play -------------------------------------------------------


class TestCreateAndAccept:
    def test_open_challenge_taken_by_anyone(self, alice, bob):
        response = create(client_for(alice), variant="classic")
        assert response.status_code == 201
        game = response.json()
        assert (game["status"], game["you"], game["ply"]) == ("open", 0, 0)
        assert [s["user"] for s in game["seats"]] == ["alice", None]
        accepted = client_for(bob).post(f"{GAMES}{game['id']}/accept/")
        assert accepted.status_code == 200
        assert (accepted.json()["status"], accepted.json()["you"]) == ("active", 1)

    def test_challenge_to_a_player_and_the_refusals(self, alice, bob, carol):
        game = create(client_for(alice), variant="classic", opponent="Bob", seat=1).json()
        assert game["you"] == 1 and game["seats"][0]["user"] == "bob"
        assert_error(client_for(carol).post(f"{GAMES}{game['id']}/accept/"), 403, "not-invited")
        assert_error(client_for(alice).post(f"{GAMES}{game['id']}/accept/"), 400, "bad-opponent")
        assert client_for(bob).post(f"{GAMES}{game['id']}/accept/").json()["status"] == "active"
        assert_error(client_for(carol).post(f"{GAMES}{game['id']}/accept/"), 400, "not-open")
        assert_error(client_for(bob).post(f"{GAMES}999999/accept/"), 404, "no-such-game")

    def test_bad_requests_carry_a_code(self, alice):
        client = client_for(alice)
        assert_error(create(client, variant="chess"), 400, "unknown-variant")
        assert_error(create(client, variant="classic", opponent="nobody"), 400, "no-such-player")
        assert_error(create(client, variant="classic", opponent="alice"), 400, "bad-opponent")
        assert_error(create(client, variant="classic", options={"first": "Q"}), 400, "bad-options")
        assert_error(create(client), 400, "bad-request")
        invalid = assert_error(create(client, variant="classic", ai_level="grandmaster"), 400, "invalid")
        assert "ai_level" in invalid["fields"]
        assert_error(create(client, variant="classic", seat=2), 400, "invalid")

    def test_authentication(self, alice):
        assert_error(create(APIClient(), variant="classic"), 401, "not_authenticated")
        wrong = APIClient()
        wrong.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
        assert_error(create(wrong, variant="classic"), 401, "authentication_failed")
        # A browser's session works as well as a token.
        browser = APIClient()
        assert browser.login(request=HttpRequest(), username="alice", password=PASSWORD)  # axes needs one
        assert create(browser, variant="classic").status_code == 201
        assert Game.objects.count() == 1

    def test_a_three_year_old_cannot_be_seated(self, alice, make_player):
        toddler = make_player(username="toddler", born=years_ago(3), open_account=False)
        # Closed until a guardian consents: no such player to challenge (an outside probe
        # seated a child whose consent was pending, in a rated match).
        assert_error(create(client_for(alice), variant="classic", opponent="toddler"), 400, "no-such-player")
        # Even once a guardian opens the account, the FAQ's youngest players are 4.
        consent = GuardianConsent.objects.get(user=toddler)
        account_services.grant_guardian_consent(token=account_services.consent_token(consent))
        toddler.refresh_from_db()
        assert toddler.is_active
        assert_error(create(client_for(alice), variant="classic", opponent="toddler"), 400, "not-eligible")
        assert_error(create(client_for(toddler), variant="classic"), 400, "not-eligible")
        open_game = create(client_for(alice), variant="classic").json()
        assert_error(client_for(toddler).post(f"{GAMES}{open_game['id']}/accept/"), 400, "not-eligible")
        assert Game.objects.get(pk=open_game["id"]).status == Game.Status.OPEN


# -- playing ---------------------------------------------------------------------------------


def test_a_whole_classic_game_between_two_token_clients(alice, bob):
    clients = {}
    for name in ("alice", "bob"):
        login = APIClient().post(
            "/api/v1/accounts/login/", {"username": name, "password": PASSWORD}, format="json"
        )
        clients[name] = APIClient()
        clients[name].credentials(HTTP_AUTHORIZATION=f"Token {login.json()['token']}")
    game = create(clients["alice"], variant="classic", opponent="bob").json()
    game = clients["bob"].post(f"{GAMES}{game['id']}/accept/").json()
    by_seat = {s["seat"]: clients[s["user"]] for s in game["seats"]}
    # X takes the top row while O answers in the middle row.
    for cell in (1, 4, 2, 5, 3):
        assert game["status"] == "active"
        (seat,) = game["to_move"]
        response = move(by_seat[seat], game["id"], game["ply"], {"cell": cell})
        assert response.status_code == 201, response.json()
        game = response.json()
        assert game["you"] == seat
    assert (game["status"], game["ply"], game["to_move"]) == ("finished", 5, [])
    assert game["result"]["result"] == "win" and game["result"]["winner"] == 0
    assert game["view"]["winning_line"] == [1, 2, 3]
    assert hashlib.sha256(game["seed"].encode()).hexdigest() == game["seed_hash"]
    log = APIClient().get(f"{GAMES}{game['id']}/moves/").json()
    assert [(m["ply"], m["seat"], m["move"]) for m in log["moves"]] == [
        (1, 0, {"cell": 1}),
        (2, 1, {"cell": 4}),
        (3, 0, {"cell": 2}),
        (4, 1, {"cell": 5}),
        (5, 0, {"cell": 3}),
    ]
    assert_error(move(by_seat[1], game["id"], 5, {"cell": 9}), 400, "game-over")
    watcher = APIClient().get(f"{GAMES}{game['id']}/").json()
    assert watcher["you"] is None and watcher["view"]["board"] == game["view"]["board"]


class TestMoveRefusals:
    def test_illegal_moves_carry_the_engines_code(self, alice, bob):
        game_id, a, b = started_classic(alice, bob)
        assert move(a, game_id, 0, {"cell": 5}).status_code == 201
        assert_error(move(b, game_id, 1, {"cell": 5}), 400, "occupied")
        assert_error(move(b, game_id, 1, {"cell": 10}), 400, "out-of-range")
        assert_error(move(b, game_id, 1, {"square": 1}), 400, "malformed-move")
        assert_error(move(b, game_id, 1, "e4"), 400, "malformed-move")
        assert_error(move(a, game_id, 1, {"cell": 1}), 400, "not-your-turn")
        invalid = assert_error(
            b.post(f"{GAMES}{game_id}/moves/", {"move": {"cell": 1}}, format="json"), 400, "invalid"
        )
        assert "ply" in invalid["fields"]
        # As strict as the socket: a ply is a whole number, not text or a fraction.
        for ply in ("1", "1 ", "1.0", 1.0, True, "one", [1]):
            invalid = assert_error(move(b, game_id, ply, {"cell": 1}), 400, "invalid")
            assert invalid["fields"]["ply"] == ["A valid integer is required."], ply
        assert Game.objects.get(pk=game_id).ply == 1  # nothing refused was stored
        note = b.put(f"{GAMES}{game_id}/note/", {"text": 12}, format="json")  # a note is text, not a number
        assert assert_error(note, 400, "invalid")["fields"]["text"] == ["Not a valid string."]
        assert b.get(f"{GAMES}{game_id}/note/").json()["text"] == ""
        # A form's body (the browsable API's) has only text: there digits stand for it.
        for ply in ("1 ", "1.0", "one"):
            form = b.post(f"{GAMES}{game_id}/moves/", {"ply": ply, "move": '{"cell": 1}'}, format="multipart")
            assert assert_error(form, 400, "invalid")["fields"]["ply"] == ["A valid integer is required."], ply
        form = b.post(f"{GAMES}{game_id}/moves/", {"ply": "1", "move": '{"cell": 1}'}, format="multipart")
        assert form.status_code == 201, form.json()
        assert Game.objects.get(pk=game_id).ply == 2

    def test_a_stale_ply_is_answered_with_the_current_game(self, alice, bob):
        game_id, a, b = started_classic(alice, bob)
        assert move(a, game_id, 0, {"cell": 1}).status_code == 201
        # Bob's client still believes the game is at ply 0 (a lost update, or a retry).
        body = assert_error(move(b, game_id, 0, {"cell": 2}), 409, "stale-ply")
        assert body["game"]["ply"] == 1 and body["game"]["you"] == 1
        assert body["game"]["view"]["board"][0] is not None
        assert_error(move(b, game_id, 2, {"cell": 2}), 409, "stale-ply")
        assert move(b, game_id, body["game"]["ply"], {"cell": 2}).status_code == 201

    def test_observers_and_strangers_cannot_move(self, alice, bob, carol):
        game_id, _, _ = started_classic(alice, bob)
        assert_error(move(client_for(carol), game_id, 0, {"cell": 1}), 403, "not-a-player")
        assert_error(move(APIClient(), game_id, 0, {"cell": 1}), 401, "not_authenticated")
        assert_error(move(client_for(carol), 999999, 0, {"cell": 1}), 404, "no-such-game")
        assert_error(APIClient().get(f"{GAMES}999999/"), 404, "no-such-game")
        assert Game.objects.get(pk=game_id).ply == 0

    def test_moves_before_the_game_starts_are_refused(self, alice):
        game = create(client_for(alice), variant="classic").json()
        assert_error(move(client_for(alice), game["id"], 0, {"cell": 1}), 400, "not-started")


class TestEndingGames:
    def test_resign(self, alice, bob, carol):
        game_id, a, b = started_classic(alice, bob)
        assert_error(client_for(carol).post(f"{GAMES}{game_id}/resign/"), 403, "not-a-player")
        body = b.post(f"{GAMES}{game_id}/resign/").json()
        assert (body["status"], body["result"]["winner"], body["you"]) == ("finished", 0, 1)
        assert_error(a.post(f"{GAMES}{game_id}/resign/"), 400, "game-over")

    def test_abort_only_before_the_first_move(self, alice, bob):
        game_id, a, _ = started_classic(alice, bob)
        assert a.post(f"{GAMES}{game_id}/abort/").json()["status"] == "aborted"
        game_id, a, b = started_classic(alice, bob)
        move(a, game_id, 0, {"cell": 1})
        assert_error(b.post(f"{GAMES}{game_id}/abort/"), 400, "already-begun")
        open_game = create(a, variant="classic").json()
        assert a.post(f"{GAMES}{open_game['id']}/abort/").json()["result"]["result"] == "aborted"

    def test_aborts_of_accepted_games_are_limited_per_player(self, alice, bob):
        """Seats are drawn at the accept: a player who aborted game after game could re-roll
        who moves first. The fourth abort in a day is refused and changes nothing; the other
        player's aborts and the maker's cancels of open challenges are not counted."""
        limit, _ = services.ABORTS_ALLOWED
        for _ in range(limit):
            game_id, a, _b = started_classic(alice, bob)
            assert a.post(f"{GAMES}{game_id}/abort/").json()["status"] == "aborted"
            open_game = create(a, variant="classic").json()
            assert a.post(f"{GAMES}{open_game['id']}/abort/").json()["status"] == "aborted"
        game_id, a, b = started_classic(alice, bob)
        refused = assert_error(a.post(f"{GAMES}{game_id}/abort/"), 400, "abort-limit")
        assert "play this game, or resign it" in refused["message"]
        assert Game.objects.get(pk=game_id).status == Game.Status.ACTIVE
        assert b.post(f"{GAMES}{game_id}/abort/").json()["status"] == "aborted"  # Bob has aborted none
        # The count is of the last 24 hours: a day later Alice may abort again.
        Game.objects.filter(aborted_by=alice).update(finished_at=timezone.now() - timedelta(hours=24, seconds=1))
        game_id, a, _b = started_classic(alice, bob)
        assert a.post(f"{GAMES}{game_id}/abort/").json()["status"] == "aborted"

    def test_claim_timeout(self, alice, bob):
        a, b = client_for(alice), client_for(bob)
        rules = a.post(
            "/api/v1/rule-sets/",
            {"name": "Blitz", "variant": "classic", "seconds_per_move": 1},
            format="json",
        ).json()
        game = create(a, rule_set=rules["id"], opponent="bob").json()
        b.post(f"{GAMES}{game['id']}/accept/")
        assert move(a, game["id"], 0, {"cell": 5}).status_code == 201
        assert_error(a.post(f"{GAMES}{game['id']}/claim-timeout/"), 400, "no-time-out")
        time.sleep(1.2)  # Bob lets his second run out
        body = a.post(f"{GAMES}{game['id']}/claim-timeout/").json()
        assert (body["status"], body["result"]["winner"]) == ("finished", 0)
        assert "ran out of time" in body["result"]["reason"]


class TestNotes:
    def test_only_the_author_reads_a_note(self, alice, bob, carol):
        game_id, a, b = started_classic(alice, bob)
        assert a.get(f"{GAMES}{game_id}/note/").json() == {"text": "", "updated_at": None}
        saved = a.put(f"{GAMES}{game_id}/note/", {"text": "Bob opens in corners"}, format="json")
        assert saved.status_code == 200 and saved.json()["text"] == "Bob opens in corners"
        assert a.get(f"{GAMES}{game_id}/note/").json()["text"] == "Bob opens in corners"
        assert b.get(f"{GAMES}{game_id}/note/").json()["text"] == ""
        assert_error(client_for(carol).get(f"{GAMES}{game_id}/note/"), 403, "not-a-player")
        assert_error(
            client_for(carol).put(f"{GAMES}{game_id}/note/", {"text": "x"}, format="json"),
            403,
            "not-a-player",
        )
        assert_error(APIClient().get(f"{GAMES}{game_id}/note/"), 401, "not_authenticated")
        assert_error(a.put(f"{GAMES}{game_id}/note/", {"text": "x" * 10_001}, format="json"), 400, "invalid")
        for viewer in (a, b, APIClient()):
            assert "Bob opens" not in json.dumps(viewer.get(f"{GAMES}{game_id}/").json())
        assert PrivateNote.objects.get(author=alice).text == "Bob opens in corners"


def test_the_lobby_lists_and_filters(alice, bob, carol):
    a = client_for(alice)
    open_id = create(a, variant="classic").json()["id"]
    active_id, _, _ = started_classic(alice, bob)
    finished_id = create(client_for(carol), variant="tactic-toe", ai_level="random").json()["id"]
    client_for(carol).post(f"{GAMES}{finished_id}/resign/")
    aborted_id = create(a, variant="classic").json()["id"]
    a.post(f"{GAMES}{aborted_id}/abort/")

    lobby = APIClient().get(GAMES).json()
    assert lobby["count"] == 3
    assert [g["id"] for g in lobby["results"]] == [open_id, active_id, finished_id]
    first = lobby["results"][0]
    assert (
        first["open_seat"] is True
        and first["seats"][0]["user"] == "alice"
        and first["seats"][1]["user"] is None
    )
    assert lobby["results"][2]["seats"][1]["name"] == "AI (random)"
    assert "view" not in first and "moves" not in first

    def ids(query: str) -> list[int]:
        return [g["id"] for g in APIClient().get(GAMES + query).json()["results"]]

    assert ids("?status=open") == [open_id]
    assert ids("?status=aborted,finished") == [aborted_id, finished_id]  # newest first
    assert ids("?variant=tactic-toe") == [finished_id]
    assert ids("?player=bob") == [active_id]
    assert ids("?limit=1&offset=1") == [active_id]
    assert_error(APIClient().get(GAMES + "?status=paused"), 400, "bad-filter")


def test_reads_cost_the_same_queries_however_long_the_game_or_lobby(alice, bob, carol):
    """No query per move, seat or lobby line (the hot reads of live play)."""

    def queries(client: APIClient, url: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    game_id, a, b = started_classic(alice, bob)
    short = queries(a, f"{GAMES}{game_id}/"), queries(a, GAMES)
    for ply, cell in enumerate([1, 4, 2, 5]):
        move((a, b)[ply % 2], game_id, ply, {"cell": cell})
    for _ in range(5):
        create(client_for(carol), variant="classic", ai_level="random")
    assert (queries(a, f"{GAMES}{game_id}/"), queries(a, GAMES)) == short


def test_an_unrevealed_tactic_toe_plan_never_reaches_the_opponent(alice, bob, carol):
    a = client_for(alice)
    game = create(a, variant="tactic-toe", opponent="bob").json()
    b = client_for(bob)
    b.post(f"{GAMES}{game['id']}/accept/")
    plan = {"plan": [1, 2, 6]}
    mine = move(a, game["id"], 0, plan).json()
    assert mine["view"]["your_plan"] == [1, 2, 6] and mine["moves"][0]["move"] == plan

    def secret_leaks(body: dict) -> list[str]:
        leaks = []
        if body["view"].get("your_plan"):
            leaks.append("your_plan")
        if any("move" in m or "nonce" in m for m in body["moves"]):
            leaks.append("move log")
        if "[1, 2, 6]" in json.dumps(body) or "[1,2,6]" in json.dumps(body):
            leaks.append("the plan's squares")
        return leaks

    for viewer in (b, client_for(carol), APIClient()):
        seen = viewer.get(f"{GAMES}{game['id']}/").json()
        assert seen["view"]["submitted"] == [True, False]
        assert seen["moves"][0]["commitment"] and secret_leaks(seen) == []
        log = viewer.get(f"{GAMES}{game['id']}/moves/").json()
        assert "move" not in log["moves"][0] and "nonce" not in log["moves"][0]
    # Bob's own plan reveals both; the commitment published before checks out.
    both = move(b, game["id"], 1, {"plan": [3, 4, 8]}).json()
    first = both["moves"][0]
    assert first["move"] == plan
    digest = hashlib.sha256(
        (json.dumps(plan, sort_keys=True, separators=(",", ":")) + first["nonce"]).encode()
    )
    assert digest.hexdigest() == first["commitment"]
    assert both["view"]["rounds"][0]["plans"] == [[1, 2, 6], [3, 4, 8]]


# -- against the AI: moves come from the Celery task -------------------------------------------


@pytest.mark.django_db(transaction=True)
class TestAgainstTheAI:
    def test_the_ai_move_is_enqueued_on_commit(self, alice, ai_queue):
        # Alice takes seat 1, so the AI (seat 0) moves first: the task is queued at creation.
        game = create(client_for(alice), variant="classic", ai_level="strong", seat=1).json()
        assert game["status"] == "active" and game["to_move"] == [0]
        assert ai_queue == [((game["id"], 0), {"countdown": starting.AI_PACE_SECONDS})]
        tasks.play_ai_move(game["id"], 0)
        assert Game.objects.get(pk=game["id"]).ply == 1
        (seat,) = Game.objects.get(pk=game["id"]).to_move
        assert seat == 1
        # Alice's reply queues the AI's next turn, but only once her move has committed.
        ai_queue.clear()
        user = alice
        free = next(
            i + 1
            for i, mark in enumerate(client_for(alice).get(f"{GAMES}{game['id']}/").json()["view"]["board"])
            if mark is None
        )
        with transaction.atomic():
            services.submit_move(game_id=game["id"], user=user, ply=1, move={"cell": free})
            assert ai_queue == []
        assert ai_queue == [((game["id"], 2), {"countdown": starting.AI_PACE_SECONDS})]

    @pytest.mark.parametrize("level", ["random", "casual", "strong"])
    def test_a_game_against_the_ai_finishes(self, alice, ai_queue, level):
        rng = random.Random(level)
        client = client_for(alice)
        game = create(client, variant="classic", ai_level=level).json()
        for _ in range(20):
            if game["status"] != "active":
                break
            if game["to_move"] == [game["you"]]:
                free = [i + 1 for i, mark in enumerate(game["view"]["board"]) if mark is None]
                response = move(client, game["id"], game["ply"], {"cell": rng.choice(free)})
                assert response.status_code == 201, response.json()
            else:
                # The worker's part: run every task queued so far.
                assert ai_queue, "the AI's turn was not enqueued"
                while ai_queue:
                    args, _ = ai_queue.pop(0)
                    tasks.play_ai_move(*args)
            game = client.get(f"{GAMES}{game['id']}/").json()
        assert game["status"] == "finished"
        assert game["result"]["result"] in ("win", "draw")
        if level == "strong":
            assert game["result"]["winner"] != 0  # perfect play never loses
        seats = [m["seat"] for m in game["moves"]]
        assert seats == [i % 2 for i in range(len(seats))]


# -- the admin ----------------------------------------------------------------------------------


def test_admin_pages_show_games_and_hide_note_text(alice, bob, client):
    game_id, a, _ = started_classic(alice, bob)
    move(a, game_id, 0, {"cell": 5})
    a.put(f"{GAMES}{game_id}/note/", {"text": "a secret idea"}, format="json")
    admin = SuperuserFactory.create(password="x")
    client.force_login(admin)
    for url in (
        "/admin/games/game/",
        f"/admin/games/game/{game_id}/change/",
        "/admin/games/ruleset/",
        "/admin/games/match/",
        "/admin/games/observer/",
        "/admin/games/privatenote/",
    ):
        assert client.get(url).status_code == 200, url
    page = client.get(f"/admin/games/game/{game_id}/change/").content.decode()
    assert "square 5" in page or "{&quot;cell&quot;: 5}" in page
    note = PrivateNote.objects.get(author=alice)
    for url in ("/admin/games/privatenote/", f"/admin/games/privatenote/{note.pk}/change/"):
        body = client.get(url).content.decode()
        assert "a secret idea" not in body and ">13<" in body
    assert client.post(f"/admin/games/game/{game_id}/delete/").status_code == 403


def test_the_admin_shows_no_secret_move_nor_the_seed_of_a_game_in_play(alice, bob, client):
    """A Tactic-Toe plan is its player's alone until the reveal, and the seed (every later
    draw) the game's until it ends: the console showed both, the plan in the moves and
    both in the engine's state, to superusers and to the club's organisers and arbiters,
    who may be playing in the event (an outside probe)."""
    a, b = client_for(alice), client_for(bob)
    game_id = create(a, variant="tactic-toe", opponent="bob").json()["id"]
    assert b.post(f"{GAMES}{game_id}/accept/").status_code == 200
    assert move(a, game_id, 0, {"plan": [2, 3, 7]}).status_code == 201
    client.force_login(SuperuserFactory.create(password="x"))
    url = f"/admin/games/game/{game_id}/change/"
    seed = Game.objects.get(pk=game_id).seed

    def page() -> str:
        response = client.get(url)
        assert response.status_code == 200
        return response.content.decode()

    shown = page()
    assert "[2, 3, 7]" not in shown and seed not in shown
    assert "secret until the reveal" in shown
    assert move(b, game_id, 1, {"plan": [4, 5, 6]}).status_code == 400  # 5 is forbidden in round 1
    assert move(b, game_id, 1, {"plan": [4, 8, 6]}).status_code == 201  # the reveal
    shown = page()
    assert "[2, 3, 7]" in shown and "[4, 8, 6]" in shown and seed not in shown
    assert b.post(f"{GAMES}{game_id}/resign/").status_code == 200
    assert seed in page()  # over: the seed is public (GET /games/{id}/ gives it too)


# -- the real processes: the AI's moves come from a real Celery worker ----------------------------


def _http(port: int, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={
            "Content-Type": "application/json",
            **({"Authorization": f"Token {token}"} if token else {}),
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


@pytest.mark.slow
def test_a_game_against_the_ai_through_real_processes(tmp_path):
    """runplatform (embedded) or uvicorn + `celery worker` (Redis): the AI's turn is
    queued on commit and a real worker plays it; the client only polls the API."""
    port = free_port()
    with scratch_database(tmp_path) as env:
        if settings.EMBEDDED:
            commands = [runplatform_command(port)]
        else:
            commands = [uvicorn_command(port), WORKER_COMMAND]
        with running(*commands, env=env, log_dir=tmp_path) as processes:
            wait_for_port(port, process=processes[0])
            status, login = _http(
                port, "POST", "/api/v1/accounts/login/", {"username": "sam", "password": "tictactoe-demo"}
            )
            assert status == 200, login
            token = login["token"]
            status, game = _http(
                port, "POST", GAMES, {"variant": "classic", "ai_level": "strong", "seat": 1}, token
            )
            assert status == 201, game
            rng = random.Random(7)
            deadline = time.monotonic() + 60
            while game["status"] == "active" and time.monotonic() < deadline:
                if game["to_move"] == [1]:
                    free = [i + 1 for i, mark in enumerate(game["view"]["board"]) if mark is None]
                    status, game = _http(
                        port,
                        "POST",
                        f"{GAMES}{game['id']}/moves/",
                        {"ply": game["ply"], "move": {"cell": rng.choice(free)}},
                        token,
                    )
                    assert status == 201, game
                else:
                    time.sleep(0.2)  # the worker plays after AI_PACE_SECONDS
                    status, game = _http(port, "GET", f"{GAMES}{game['id']}/", token=token)
            logs = "\n".join(
                (tmp_path / f"process-{i}.log").read_text()[-1500:] for i in range(len(processes))
            )
            assert game["status"] == "finished", logs
            assert game["result"]["winner"] in (0, None)  # the strong AI never loses
            assert [m["seat"] for m in game["moves"]][:2] == [0, 1]


# -- rated games (docs/ratings.md: who may create one) -----------------------------------


def test_the_schema_documents_rated_on_creation_and_in_the_lobby(tmp_path: Path):
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--fail-on-warn", "--file", str(out))
    schemas = yaml.safe_load(out.read_text())["components"]["schemas"]
    rated = schemas["GameCreateRequest"]["properties"]["rated"]
    assert rated["type"] == "boolean" and rated["default"] is False and "ai-not-rated" in rated["description"]
    assert "rated" in schemas["LobbyGame"]["required"]


def test_a_rated_challenge_and_a_rated_open_challenge_show_rated_in_the_lobby(alice, bob, carol):
    a = client_for(alice)
    named = create(a, variant="classic", opponent="bob", rated=True)
    assert named.status_code == 201, named.json()
    open_one = create(a, variant="nine-square", rated=True)
    casual = create(a, variant="classic")
    assert Game.objects.get(pk=named.json()["id"]).rated
    assert Game.objects.get(pk=open_one.json()["id"]).rated
    assert not Game.objects.get(pk=casual.json()["id"]).rated  # unrated unless asked
    # Whoever may accept sees that it is rated before accepting.
    lobby = {g["id"]: g for g in client_for(carol).get(GAMES, {"status": "open"}).json()["results"]}
    assert lobby[open_one.json()["id"]]["rated"] is True and lobby[open_one.json()["id"]]["open_seat"] is True
    assert lobby[casual.json()["id"]]["rated"] is False
    assert named.json()["id"] not in lobby  # a challenge to bob: carol never sees it
    lobby = {g["id"]: g for g in client_for(bob).get(GAMES, {"status": "open"}).json()["results"]}
    assert lobby[named.json()["id"]]["rated"] is True and lobby[named.json()["id"]]["open_seat"] is False
    accepted = client_for(carol).post(f"{GAMES}{open_one.json()['id']}/accept/")
    assert accepted.status_code == 200 and Game.objects.get(pk=open_one.json()["id"]).rated


def test_a_rated_game_against_the_ai_is_refused_and_nothing_is_created(alice):
    a = client_for(alice)
    before = Game.objects.count()
    assert_error(create(a, variant="classic", ai_level="random", rated=True), 400, "ai-not-rated")
    rules = rule_sets.create_rule_set(name="Bo3", variant="classic", match_format="best-of", match_games=3)
    assert_error(create(a, rule_set=rules.pk, ai_level="strong", rated=True), 400, "ai-not-rated")
    invalid = assert_error(create(a, variant="classic", opponent="bob", rated="maybe"), 400, "invalid")
    assert "rated" in invalid["fields"]
    assert Game.objects.count() == before
    # Unrated, the same game against the AI is fine.
    assert create(a, variant="classic", ai_level="random", rated=False).status_code == 201


def test_every_game_of_a_rated_match_is_rated(alice, bob):
    rules = rule_sets.create_rule_set(name="Bo3", variant="classic", match_format="best-of", match_games=3)
    a, b = client_for(alice), client_for(bob)
    for rated in (True, False):
        game = create(a, rule_set=rules.pk, opponent="bob", rated=rated).json()
        assert b.post(f"{GAMES}{game['id']}/accept/").status_code == 200
        match_id = Game.objects.get(pk=game["id"]).match_id
        # Each side resigns one game: 1-1, so all three games are played.
        for loser in (b, a, b):
            assert loser.post(f"{GAMES}{game['id']}/resign/").status_code == 200
            following = Game.objects.filter(match_id=match_id).order_by("-number_in_match").first()
            game = {"id": following.pk}
        games = Game.objects.filter(match_id=match_id)
        assert games.count() == 3 and all(g.status == "finished" for g in games)
        assert {g.rated for g in games} == {rated}


def test_a_rated_match_decided_by_rock_paper_scissors_is_rated_throughout(alice, bob):
    rules = rule_sets.create_rule_set(name="RPS first", variant="classic", decider="rock-paper-scissors")
    decider = create(client_for(alice), rule_set=rules.pk, opponent="bob", rated=True).json()
    assert decider["variant"] == "rock-paper-scissors"
    assert client_for(bob).post(f"{GAMES}{decider['id']}/accept/").status_code == 200
    assert move(client_for(alice), decider["id"], 0, {"throw": "rock"}).status_code == 201
    assert move(client_for(bob), decider["id"], 1, {"throw": "scissors"}).status_code == 201
    match_games = Game.objects.get(pk=decider["id"]).match.games.order_by("number_in_match")
    assert [(g.variant, g.rated) for g in match_games] == [("rock-paper-scissors", True), ("classic", True)]


def test_the_lobby_form_creates_a_rated_game_and_refuses_a_rated_ai_game(client, alice, bob):
    from django.urls import reverse

    client.force_login(alice)
    page = client.get(reverse("games:lobby")).content.decode()
    assert 'name="rated"' in page
    response = client.post(reverse("games:create"), {"variant": "classic", "opponent": "open", "rated": "on"})
    game = Game.objects.get(created_by=alice)
    assert response.url == reverse("games:game", args=[game.pk]) and game.rated
    lobby = client.get(reverse("games:lobby")).content.decode()
    line = lobby[lobby.index(f'id="open-{game.pk}"'):]
    assert "rated</strong>" in line[: line.index("</li>")]
    refused = client.post(
        reverse("games:create"), {"variant": "classic", "opponent": "ai", "ai_level": "random", "rated": "on"}
    )
    body = refused.content.decode()
    assert refused.status_code == 400 and "never rated" in body
    assert 'name="rated" value="on"' in body and "checked" in body[body.index('name="rated"'):][:120]
    assert Game.objects.filter(created_by=alice).count() == 1
    client.post(reverse("games:create"), {"variant": "classic", "opponent": "user", "username": "bob"})
    assert not Game.objects.filter(created_by=alice).order_by("-pk").first().rated  # the box unticked


def test_a_banned_or_refused_viewer_gets_403_with_the_gate_code(alice, bob, carol):
    from moderation import services as moderation

    root = SuperuserFactory.create()
    game_id, a, _ = started_classic(alice, bob)
    game = Game.objects.get(pk=game_id)
    watcher = client_for(carol)
    assert watcher.get(f"{GAMES}{game_id}/").status_code == 200
    moderation.ban_user(actor=root, user=carol, game=game, reason="Relaying moves")
    body = assert_error(watcher.get(f"{GAMES}{game_id}/"), 403, "banned")
    assert "Relaying moves" in body["message"]
    assert_error(watcher.get(f"{GAMES}{game_id}/moves/"), 403, "banned")
    assert a.get(f"{GAMES}{game_id}/").status_code == 200  # a player always reads their game
    assert client_for(root).get(f"{GAMES}{game_id}/").status_code == 200
    assert client_for().get(f"{GAMES}{game_id}/").status_code == 200
    moderation.set_observer_policy(actor=root, game=game, policy="signed-in")
    assert_error(client_for().get(f"{GAMES}{game_id}/"), 403, "sign-in-to-watch")
    assert_error(client_for().get(f"{GAMES}999999/"), 404, "no-such-game")
