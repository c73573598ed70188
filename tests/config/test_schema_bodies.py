"""The schema says what the API does with a body's other fields: it refuses them (400
``unknown-field`` or ``read-only-field``, docs/api.md), so each request body's schema
says ``additionalProperties: false``. Without it a fuzzer (schemathesis, run from outside
against /api/schema/) sent bodies with extra fields as valid ones and found 24 operations
"rejecting schema-valid requests"; a client generated from the schema could do the same."""

from __future__ import annotations

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator


def _bodies() -> list[tuple[str, str, str, dict]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    found = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for media_type, content in operation.get("requestBody", {}).get("content", {}).items():
                body = content["schema"]
                if "$ref" in body:
                    body = components[body["$ref"].rsplit("/", 1)[-1]]
                found.append((method.upper(), path, media_type, body))
    return found


def test_every_request_body_refuses_other_fields_in_the_schema():
    bodies = _bodies()
    assert len(bodies) > 30
    open_ones = [f"{method} {path} ({media_type})" for method, path, media_type, body in bodies
                 if body.get("type") == "object" and body.get("additionalProperties") is not False]
    assert open_ones == []


def test_a_nested_object_is_left_as_the_api_reads_it():
    """Only the body's own fields are held to the list: a move or a rule set's options
    are the engine's to check, not the schema's."""
    moves = [body for method, path, _, body in _bodies() if path == "/api/v1/games/{id}/moves/"]
    assert moves and all(body["additionalProperties"] is False for body in moves)
    assert "additionalProperties" not in moves[0]["properties"]["move"]


@pytest.mark.django_db
def test_the_api_does_refuse_them(django_user_model):
    user = django_user_model.objects.create_user("probe", password="x" * 12)
    client = Client()
    client.force_login(user)
    answer = client.patch("/api/v1/accounts/me/", {"display_name": "P", "nickname": "p"},
                          content_type="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "unknown-field"


@pytest.mark.django_db
def test_a_profiles_country_is_never_set_blank_and_the_schema_says_so(django_user_model):
    """``PATCH /api/v1/accounts/me/`` refuses ``"country": ""`` (a country is given or left
    out); its body's schema took a blank one (the answer's: a superuser's profile may have
    none), so a fuzzer sent it as valid and got 400."""
    [(_, _, _, body)] = [b for b in _bodies() if b[:3] == ("PATCH", "/api/v1/accounts/me/", "application/json")]
    schema = SchemaGenerator().get_schema(request=None, public=True)
    country = body["properties"]["country"]
    refs = [part["$ref"] for part in country.get("oneOf", [country]) if "$ref" in part]
    allowed = {value for ref in refs for value in schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]["enum"]}
    assert "" not in allowed and "FR" in allowed
    user = django_user_model.objects.create_user("blank", password="x" * 12)
    client = Client()
    client.force_login(user)
    answer = client.patch("/api/v1/accounts/me/", {"country": ""}, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["fields"] == {"country": ['"" is not a valid choice.']}
