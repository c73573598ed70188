"""``OPTIONS`` on a competitions write describes that write's own body, the one the
schema gives it: an outside probe found OPTIONS on a section's /entries/ and /withdraw/
describing the section (name, format, rounds, ...), DRF's view serializer, where the
schema says ``{"username"}`` and ``{"username", "reason"}``."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from league.models import ClubMembership
from tests.factories import ClubFactory, MembershipFactory, make_section
from tests.support import api_as as api

pytestmark = pytest.mark.django_db


@pytest.fixture
def section(make_player):
    club = ClubFactory.create(name="Harbour club", slug="harbour")
    owner = MembershipFactory.create(club=club, user=make_player(username="otto"),
                                     role=ClubMembership.Role.OWNER).user
    return make_section(club, owner, format="swiss", players=[make_player(username="pia")], rounds=1), owner


def _schema_body(schema: dict, path: str) -> set[str]:
    """The fields of the POST body the schema documents for ``path`` (none: empty)."""
    body = schema["paths"][path]["post"].get("requestBody")
    if body is None:
        return set()
    ref = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    return set(schema["components"]["schemas"][ref]["properties"])


@pytest.mark.parametrize("documented, path", [
    ("/api/v1/sections/{id}/entries/", "/api/v1/sections/{section}/entries/"),
    ("/api/v1/sections/{id}/withdraw/", "/api/v1/sections/{section}/withdraw/"),
    ("/api/v1/sections/{id}/swiss-pairing/", "/api/v1/sections/{section}/swiss-pairing/"),
    ("/api/v1/sections/{id}/check-in/", "/api/v1/sections/{section}/check-in/"),
    ("/api/v1/sections/{id}/start/", "/api/v1/sections/{section}/start/"),
    ("/api/v1/sections/{id}/pause/", "/api/v1/sections/{section}/pause/"),
    ("/api/v1/sections/", "/api/v1/sections/"),
    ("/api/v1/tournaments/", "/api/v1/tournaments/"),
    ("/api/v1/tournaments/{id}/start/", "/api/v1/tournaments/{tournament}/start/"),
    ("/api/v1/tournaments/{id}/open-registration/", "/api/v1/tournaments/{tournament}/open-registration/"),
])
def test_options_describes_the_body_the_schema_documents(section, documented, path):
    section, owner = section
    schema = SchemaGenerator().get_schema(request=None, public=True)
    answer = api(owner).options(path.format(section=section.pk, tournament=section.tournament_id))
    assert answer.status_code == 200
    described = set(answer.json().get("actions", {}).get("POST", {}))
    read_only = {name for name, field in answer.json().get("actions", {}).get("POST", {}).items()
                 if field.get("read_only")}
    assert described - read_only == _schema_body(schema, documented)
