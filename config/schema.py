"""The OpenAPI schema's generator: drf-spectacular's, told about the errors every
operation can answer. Not in config.api: DRF imports that one (the pagination) while
its generic views are still loading, and drf-spectacular imports them. For the same
reason the error shape comes from accounts.errors, which defines no view: DRF loads
this class while the API modules' views are being defined."""

from __future__ import annotations

from collections.abc import Callable

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema

from accounts.errors import ErrorSerializer

#: What any operation may answer besides its own responses, always in the error shape:
#: bad input (a query parameter, a page, a NUL byte), a bad token, a refusal, an unknown
#: object or ``?format=``, a throttle.
COMMON_ERRORS = {
    "400": "Bad input: the reason in `message`, per field in `fields`.",
    "401": "Not signed in, or a bad token.",
    "403": "Not allowed.",
    "404": "No such object (or format).",
    "429": "Too many requests: try again later.",
}
#: And what an operation taking a body may answer: a body it cannot read (a media type
#: it does not take, or a multipart body without its headers).
BODY_ERRORS = {"415": "Unsupported media type: send JSON."}




def _variants() -> list[str]:
    from games.rules import variant_slugs

    return variant_slugs()


def _tournament_statuses() -> list[str]:
    from league.models import Tournament

    return list(Tournament.Status.values)


#: Query filters that take one of a fixed set but are declared as plain text by their
#: views: the schema gives each its set (an ``enum``), and every list is held to the sets
#: of its schema (config.api.Pagination; docs/api.md, "Lists"). By the operation's id and
#: the parameter's name; a ``variant`` filter, on any list, is a variant's slug. An outside
#: probe's ``?status=bogus`` was an empty list, as if no tournament had that status.
FIXED_SETS: dict[tuple[str, str], Callable[[], list[str]]] = {
    ("v1_tournaments_list", "status"): _tournament_statuses,
}
ANY_LIST_FIXED_SETS: dict[str, Callable[[], list[str]]] = {"variant": _variants}


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's, plus the error responses every operation can give, so the
    schema is true for all of them (tests/test_api_fuzz.py holds the API to it), and the
    set of values of each filter that takes one (``FIXED_SETS``)."""

    def _get_parameters(self):
        parameters = super()._get_parameters()
        operation_id = self.get_operation_id()
        for parameter in parameters:
            if parameter.get("in") != "query" or "enum" in parameter.get("schema", {}):
                continue
            values = FIXED_SETS.get((operation_id, parameter["name"])) or ANY_LIST_FIXED_SETS.get(parameter["name"])
            if values is not None:
                parameter["schema"] = {**parameter["schema"], "enum": values()}
        return parameters

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        error = None
        common = COMMON_ERRORS | (BODY_ERRORS if self.method in ("POST", "PUT", "PATCH") else {})
        for code, description in common.items():
            if code in responses and responses[code].get("content"):
                continue
            if error is None:
                error = self._get_response_for_code(ErrorSerializer, code, ["application/json"], direction)["content"]
            responses[code] = {"content": error, "description": responses.get(code, {}).get("description")
                               or description}
        return responses


def refuse_other_fields(result: dict, generator, request, public) -> dict:
    """drf-spectacular's postprocessing hook: each request body's own schema says
    ``additionalProperties: false``, as the API refuses a field its body does not have
    (``unknown-field``, config.parsers and the PATCH views; docs/api.md). Nested objects
    (a move, a rule set's options) are left open: the engine checks those. Without it a
    fuzzer read an extra field as valid and found 24 operations refusing valid bodies."""
    components = result.get("components", {}).get("schemas", {})
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for content in operation.get("requestBody", {}).get("content", {}).values():
                body = content.get("schema", {})
                if "$ref" in body:
                    body = components.get(body["$ref"].rsplit("/", 1)[-1], {})
                if body.get("type") == "object":
                    body["additionalProperties"] = False
    return result
