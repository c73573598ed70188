"""A refusal of who is asking is 403 on every endpoint, in the one error shape with one
code: an outside probe found a player calling an organiser's action answered 403
``not-organiser`` on some endpoints (PATCH, entering another player) and 400 on others
(start, open-registration, swiss-pairing, creating a tournament), with the service's
code; and a move or a note by someone not seated 400 ``not-a-player``."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from config.api import FORBIDDEN_CODES
from league.models import ClubMembership
from tests.factories import ClubFactory, MembershipFactory, make_section
from tests.support import api_as as api

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(make_player):
    club = ClubFactory.create(name="Harbour club", slug="harbour")
    owner = MembershipFactory.create(club=club, user=make_player(username="otto"),
                                     role=ClubMembership.Role.OWNER).user
    player = MembershipFactory.create(club=club, user=make_player(username="pia")).user
    section = make_section(club, owner, format="swiss", players=[player, make_player(username="quin")], rounds=1)
    return {"club": club, "player": player, "section": section, "tournament": section.tournament}


def _organiser_actions(world) -> list[tuple[str, str, dict]]:
    section, tournament = world["section"], world["tournament"]
    starts = (timezone.now() + timedelta(days=1)).isoformat()
    return [
        ("post", "/api/v1/tournaments/", {"club": "harbour", "name": "Mine", "starts_at": starts}),
        ("patch", f"/api/v1/tournaments/{tournament.pk}/", {"name": "Mine"}),
        ("post", f"/api/v1/tournaments/{tournament.pk}/close-registration/", {}),
        ("post", f"/api/v1/tournaments/{tournament.pk}/open-registration/", {}),
        ("post", f"/api/v1/tournaments/{tournament.pk}/start/", {}),
        ("post", "/api/v1/sections/", {"tournament": tournament.pk, "name": "Mine", "format": "swiss",
                                       "variant": "classic"}),
        ("patch", f"/api/v1/sections/{section.pk}/", {"name": "Mine"}),
        ("post", f"/api/v1/sections/{section.pk}/start/", {}),
        ("post", f"/api/v1/sections/{section.pk}/swiss-pairing/", {"swiss_system": "fast"}),
        ("post", f"/api/v1/sections/{section.pk}/entries/", {"username": "quin"}),
        ("post", f"/api/v1/sections/{section.pk}/withdraw/", {"username": "quin"}),
        ("delete", f"/api/v1/sections/{section.pk}/", {}),
        ("delete", f"/api/v1/tournaments/{tournament.pk}/", {}),
    ]


def test_every_organiser_action_refuses_a_player_with_the_same_403(world):
    answers = {}
    for method, path, body in _organiser_actions(world):
        answer = getattr(api(world["player"]), method)(path, body, format="json")
        answers[f"{method.upper()} {path}"] = (answer.status_code, answer.json()["code"], sorted(answer.json()))
    assert answers == {key: (403, "not-organiser", ["code", "message"]) for key in answers}


def test_a_player_refused_by_the_games_services_is_403_too(alice, bob, carol):
    made = api(alice).post("/api/v1/games/", {"variant": "classic", "opponent": "bob"}, format="json").json()
    game = f"/api/v1/games/{made['id']}"
    invited_elsewhere = api(carol).post(f"{game}/accept/")
    assert (invited_elsewhere.status_code, invited_elsewhere.json()["code"]) == (403, "not-invited")
    not_the_maker = api(bob).post(f"{game}/abort/")
    assert (not_the_maker.status_code, not_the_maker.json()["code"]) == (403, "not-yours")
    assert api(bob).post(f"{game}/accept/").status_code == 200
    for answer in (api(carol).post(f"{game}/moves/", {"ply": 0, "move": {"cell": 0}}, format="json"),
                   api(carol).post(f"{game}/resign/"), api(carol).get(f"{game}/note/")):
        assert (answer.status_code, answer.json()["code"]) == (403, "not-a-player")


def test_the_permission_codes_are_the_ones_the_docs_list():
    """docs/api.md names each code answered 403 (a client tells them apart by it)."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    assert all(f"`{code}`" in text for code in FORBIDDEN_CODES)
