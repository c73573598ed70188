"""A match as players meet it: its score and next game in every payload, and the
official T-Tic-T-Tac-Toe version choice through the page and the API."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import rule_sets, selectors
from games.models import Game
from tests.factories import official_match_to_choose
from tests.sockets import pushed_board

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_payload_says_who_must_choose_and_the_page_offers_it(client, alice, bob):
    match = official_match_to_choose(alice, bob)
    classic = match.games.get(number_in_match=2)
    summary = selectors.game_payload(selectors.load_game(classic.pk), None)["match"]
    assert summary["stage"] == "version" and summary["choose_version"]["chooser_id"] == alice.pk
    assert summary["next_game"] is None
    client.force_login(bob)
    assert "Waiting for" in client.get(reverse("games:game", args=[classic.pk])).content.decode()
    response = client.post(reverse("games:match-version", args=[match.pk]), {"version": "1.0"})
    assert response.status_code == 302 and not match.games.filter(variant="t-tic-t-tac-toe").exists()
    client.force_login(alice)
    page = client.get(reverse("games:game", args=[classic.pk])).content.decode()
    assert "choose the version" in page and 'value="2.0"' in page
    # The pushed boards offer the choice to the chooser's seat alone, and carry no CSRF
    # token (rendered without a request: the page's script adds its own).
    pushed = pushed_board(classic.pk, alice)
    assert "choose the version" in pushed and 'value="2.0"' in pushed and "csrfmiddlewaretoken" not in pushed
    assert "choose the version" not in pushed_board(classic.pk, bob) + pushed_board(classic.pk)
    response = client.post(reverse("games:match-version", args=[match.pk]), {"version": "2.0"})
    first = match.games.get(variant="t-tic-t-tac-toe")
    assert response.url == reverse("games:game", args=[first.pk])
    assert first.options["version"] == "2.0" and first.seats.get(number=0).user == alice
    summary = selectors.game_payload(selectors.load_game(classic.pk), None)["match"]
    assert summary["next_game"] == first.pk and summary["choose_version"] is None


def test_the_api_takes_the_version_choice_with_the_one_error_shape(client, alice, bob):
    from rest_framework.authtoken.models import Token

    match = official_match_to_choose(alice, bob)
    url = f"/api/v1/matches/{match.pk}/version/"
    bob_auth = {"HTTP_AUTHORIZATION": f"Token {Token.objects.create(user=bob).key}"}
    alice_auth = {"HTTP_AUTHORIZATION": f"Token {Token.objects.create(user=alice).key}"}
    refused = client.post(url, {"version": "1.0"}, content_type="application/json", **bob_auth)
    # Not bob's to choose: a refusal of who asks, 403 as every other (config.api.FORBIDDEN_CODES).
    assert refused.status_code == 403 and refused.json()["code"] == "not-your-choice" and refused.json()["message"]
    bad = client.post(url, {"version": "3.0"}, content_type="application/json", **alice_auth)
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    chosen = client.post(url, {"version": "1.0"}, content_type="application/json", **alice_auth)
    assert chosen.status_code == 200
    body = chosen.json()
    assert body["variant"] == "t-tic-t-tac-toe" and body["rules"]["options"]["version"] == "1.0"
    assert Game.objects.filter(match=match, variant="t-tic-t-tac-toe").count() == 1
    assert client.post("/api/v1/matches/999999/version/", {"version": "1.0"},
                       content_type="application/json", **alice_auth).status_code == 404


@pytest.mark.parametrize("version", [2.0, 1.0, 2, 1, True, False, None, "2", " 2.0", "2.0 ", ["2.0"], {"version": "2.0"}])
def test_the_api_takes_the_version_as_text_only(client, alice, bob, version):
    """The versions are the texts "1.0" and "2.0", as the rules and the socket take them:
    DRF's choice field compared str(data), so the JSON number 2.0 (or 1.0) passed."""
    from rest_framework.authtoken.models import Token

    match = official_match_to_choose(alice, bob)
    url = f"/api/v1/matches/{match.pk}/version/"
    alice_auth = {"HTTP_AUTHORIZATION": f"Token {Token.objects.create(user=alice).key}"}
    refused = client.post(url, {"version": version}, content_type="application/json", **alice_auth)
    assert refused.status_code == 400, refused.json()
    body = refused.json()
    assert body["code"] == "invalid" and body["message"].startswith("version: ") and "version" in body["fields"]
    assert not Game.objects.filter(match=match, variant="t-tic-t-tac-toe").exists()
    chosen = client.post(url, {"version": "2.0"}, content_type="application/json", **alice_auth)
    assert chosen.status_code == 200 and chosen.json()["rules"]["options"]["version"] == "2.0"


def test_the_lobby_creates_a_game_under_a_house_rule_set(client, alice):
    rules = rule_sets.create_rule_set(
        name="Club best of three", variant="classic", match_format="best-of", match_games=3
    )
    client.force_login(alice)
    assert "Club best of three (v1, classic)" in client.get(reverse("games:lobby")).content.decode()
    response = client.post(
        reverse("games:create"), {"rule_set": rules.pk, "opponent": "ai", "ai_level": "random", "seat": "0"}
    )
    game = Game.objects.get(rule_set=rules)
    assert response.url == reverse("games:game", args=[game.pk]) and game.match.kind == "series"
    missing = client.post(reverse("games:create"), {"rule_set": 999999, "opponent": "open"})
    assert "does not exist" in missing.content.decode()
    # Another variant named beside the set is refused in words (a walkthrough's game came
    # out in the set's variant, the Classic chosen dropped without a word).
    before = Game.objects.count()
    other = client.post(reverse("games:create"), {"variant": "tactic-toe", "rule_set": rules.pk, "opponent": "ai",
                                                  "ai_level": "random"})
    assert "That house-rule set is for Classic Tic Tac Toe: choose Classic Tic Tac Toe as the variant too" in (
        other.content.decode()) and Game.objects.count() == before
    assert 'data-variant="classic"' in client.get(reverse("games:lobby")).content.decode()  # for the page's script


def test_a_match_rule_set_through_the_api(client, alice):
    from rest_framework.authtoken.models import Token

    auth = {"HTTP_AUTHORIZATION": f"Token {Token.objects.create(user=alice).key}"}
    created = client.post(
        "/api/v1/rule-sets/",
        {"name": "Official", "variant": "t-tic-t-tac-toe", "match_format": "official"},
        content_type="application/json", **auth,
    )
    assert created.status_code == 201 and created.json()["match_format"] == "official"
    refused = client.post(
        "/api/v1/rule-sets/",
        {"name": "Wrong", "variant": "classic", "match_format": "official"},
        content_type="application/json", **auth,
    )
    assert refused.status_code == 400 and refused.json()["code"] == "bad-match-rules"
