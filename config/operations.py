"""The API's operations as its schema documents them (drf-spectacular, ``/api/schema/``),
so that requests are held to that description in one place: a list's filters to the
values the schema gives them (``enum``: config.api.Pagination) and a write's body to the
fields the schema gives it (config.parsers). The schema is made once per process, at
the first request that asks (about half a second), from the same generator as
``/api/schema/``; an operation is found by the request's resolved view and method.

Imports of DRF's views and drf-spectacular are inside the functions: DRF loads
config.api (the pagination) and config.parsers while its own views are being defined."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Operation:
    """What the schema says of one operation (a path's method)."""

    #: Query parameters taking one of a fixed set (the schema's ``enum``), with that set.
    choices: Mapping[str, tuple[str, ...]]
    #: The body's fields (its schema's properties); None when it documents no body.
    body_fields: frozenset[str] | None
    #: The fields of its answer (a 2xx body), which a request may name but not set.
    answer_fields: frozenset[str]


_lock = threading.Lock()
_operations: dict[tuple[Callable[..., Any], str], Operation] | None = None


def operation_for(request: Any) -> Operation | None:
    """The documented operation a request (Django's or DRF's) reached; None for a request
    that no API route resolved (a view called directly) or one the schema leaves out."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return None
    method = "GET" if request.method == "HEAD" else request.method
    return _known().get((match.func, method))


def _known() -> dict[tuple[Callable[..., Any], str], Operation]:
    global _operations
    if _operations is None:
        with _lock:
            if _operations is None:
                try:
                    _operations = _read_schema()
                except Exception:  # a schema that cannot be made: the checks step aside, said once
                    logger.exception("The API's schema could not be made: requests are not held to it")
                    _operations = {}
    return _operations


def _read_schema() -> dict[tuple[Callable[..., Any], str], Operation]:
    from drf_spectacular.generators import SchemaGenerator

    generator = SchemaGenerator()
    schema = generator.get_schema(request=None, public=True)
    components = schema.get("components", {}).get("schemas", {})
    found: dict[tuple[Callable[..., Any], str], Operation] = {}
    # The generator's own endpoints, each path written as the schema writes it ({pk} as {id}).
    endpoints: list[tuple[str, str, str, Callable[..., Any]]] = list(generator.endpoints or ())  # type: ignore[arg-type]  # DRF's stub says 3
    for path, _regex, method, callback in endpoints:
        documented = generator.coerce_path(path, method, generator.create_view(callback, method))
        operation = schema["paths"].get(documented, {}).get(method.lower())
        if operation is not None:
            found[(callback, method)] = _read_operation(operation, components)
    return found


def _read_operation(operation: dict[str, Any], components: dict[str, Any]) -> Operation:
    choices = {
        parameter["name"]: tuple(str(value) for value in parameter["schema"]["enum"])
        for parameter in operation.get("parameters", ())
        if parameter.get("in") == "query" and "enum" in parameter.get("schema", {})
    }
    body = operation.get("requestBody")
    body_fields = None
    if body:
        content = body.get("content", {})
        first: dict[str, Any] = content.get("application/json") or next(iter(content.values()), {})
        body_fields = frozenset(_properties(first.get("schema", {}), components))
    answer: set[str] = set()
    for status, response in operation.get("responses", {}).items():
        if str(status).startswith("2"):
            for content in response.get("content", {}).values():
                answer |= _properties(content.get("schema", {}), components)
    return Operation(choices=choices, body_fields=body_fields, answer_fields=frozenset(answer))


def _properties(schema: dict[str, Any], components: dict[str, Any]) -> set[str]:
    """The field names of an object schema (through ``$ref``s and ``allOf``); an array's are
    its items'."""
    seen = 0
    while "$ref" in schema and seen < 20:
        schema = components.get(schema["$ref"].rsplit("/", 1)[-1], {})
        seen += 1
    if schema.get("type") == "array":
        return _properties(schema.get("items", {}), components)
    names = set(schema.get("properties", {}))
    for part in schema.get("allOf", ()):
        names |= _properties(part, components)
    return names
