"""The game payload and the error shape carry no key the schema leaves out: a bot written
from docs/openapi.yaml (a generated client, a strict model) met ``rated``,
``idle_deadline``, ``rules.time_control`` and ``seats[].running`` in every game, and
``fields`` in a 400, that the schema did not name."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token

from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def _undeclared(schema: dict[str, Any], components: dict[str, Any], data: Any, path: str = "") -> set[str]:
    """Keys of ``data`` (followed into objects and lists) its schema does not declare."""
    while "$ref" in schema or ("allOf" in schema and len(schema["allOf"]) == 1):
        schema = components[schema["$ref"].rsplit("/", 1)[-1]] if "$ref" in schema else schema["allOf"][0]
    found: set[str] = set()
    if isinstance(data, dict) and "properties" in schema:
        for key, value in data.items():
            if key not in schema["properties"]:
                found.add(f"{path}.{key}")
            else:
                found |= _undeclared(schema["properties"][key], components, value, f"{path}.{key}")
    elif isinstance(data, list) and "items" in schema:
        for item in data:
            found |= _undeclared(schema["items"], components, item, f"{path}[]")
    return found


@pytest.fixture
def components() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]


def test_every_key_of_a_game_is_in_the_schema(make_player, components):
    maker, opponent = make_player(username="schema1"), make_player(username="schema2")
    game = GameFactory(creator=maker, opponent=opponent)
    client = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=maker).key}")
    answer = client.get(f"/api/v1/games/{game.pk}/")
    assert answer.status_code == 200
    body = answer.json()
    assert {"rated", "idle_deadline"} <= set(body) and "running" in body["seats"][0]
    assert _undeclared({"$ref": "#/components/schemas/Game"}, components, body) == set()


def test_a_refusal_with_fields_is_in_the_error_schema(make_player, components):
    maker, opponent = make_player(username="schema3"), make_player(username="schema4")
    game = GameFactory(creator=maker, opponent=opponent)
    client = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=maker).key}")
    answer = client.post(f"/api/v1/games/{game.pk}/moves/", {"move": {"cell": 5}}, content_type="application/json")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "invalid" and "ply" in body["fields"]
    assert _undeclared({"$ref": "#/components/schemas/Error"}, components, body) == set()
