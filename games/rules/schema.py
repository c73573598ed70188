"""The state schemas: JSON Schema, checked by a small compiled checker. Pure Python.

Every variant declares ``state_schema``, a JSON Schema (draft 2020-12) of what its
``dump`` writes, and ``load`` refuses data that does not match it. Stored games are
loaded on every move and every board a viewer fetches, so the check is on the hot path:
the jsonschema library, even with its validator built once and reused, takes 41-1,012 us
per check where this checker takes 3-86 us and the whole load 5-117 us (measured with
bench/state_schema.py, docs/benchmarks.md), so :func:`compile_schema` turns a schema into
nested closures instead, once per
variant, for the subset of keywords the state schemas use. A keyword outside that subset
is refused when the schema is compiled, never ignored. tests/games/rules/test_damaged_dumps.py
checks that it agrees with jsonschema, integers read strictly: an integer is a Python
int, never ``1.0`` or ``True``.

The pieces below build the usual fields.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

#: A compiled check: None when ``value`` matches, else why not (with where).
Check = Callable[[Any, str], str | None]

_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: type(v) is int,
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
#: Keywords that only describe.
_ANNOTATIONS = frozenset({"title", "description", "default", "$comment"})


def compile_schema(schema: Mapping[str, Any]) -> Check:
    """A check of values against ``schema``; ValueError for a keyword it does not know."""
    unknown = set(schema) - _ANNOTATIONS - {key for keys, _ in _KEYWORDS for key in keys}
    if unknown:
        raise ValueError(f"state schemas cannot use {sorted(unknown)}")
    checks = [compiler(schema) for keys, compiler in _KEYWORDS if any(key in schema for key in keys)]

    def check(value: Any, where: str) -> str | None:
        for one in checks:
            problem = one(value, where)
            if problem is not None:
                return problem
        return None

    return check


def _type(schema: Mapping[str, Any]) -> Check:
    name = schema["type"]
    if not isinstance(name, str) or name not in _TYPES:
        raise ValueError(f"state schemas cannot use the type {name!r}")
    test = _TYPES[name]
    return lambda value, where: None if test(value) else f"{where}: {value!r} is not of type {name!r}"


def _enum(schema: Mapping[str, Any]) -> Check:
    # Compared with their types: True is not 1, and 1.0 is no integer of an enum.
    allowed = frozenset((type(v), v) for v in schema["enum"])

    def check(value: Any, where: str) -> str | None:
        try:
            if (type(value), value) in allowed:
                return None
        except TypeError:  # a list or an object: never in an enum of scalars
            pass
        return f"{where}: {value!r} is not one of {sorted(schema['enum'], key=repr)!r}"

    return check


def _any_of(schema: Mapping[str, Any]) -> Check:
    options = [compile_schema(option) for option in schema["anyOf"]]

    def check(value: Any, where: str) -> str | None:
        problems = [option(value, where) for option in options]
        return None if None in problems else problems[-1]

    return check


def _range(schema: Mapping[str, Any]) -> Check:
    low, high = schema.get("minimum"), schema.get("maximum")

    def check(value: Any, where: str) -> str | None:
        if type(value) is int and ((low is not None and value < low) or (high is not None and value > high)):
            return f"{where}: {value} is out of range"
        return None

    return check


def _pattern(schema: Mapping[str, Any]) -> Check:
    pattern = re.compile(schema["pattern"])
    return lambda value, where: (
        None if not isinstance(value, str) or pattern.search(value) else f"{where}: {value!r} does not match"
    )


def _properties(schema: Mapping[str, Any]) -> Check:
    properties = {key: compile_schema(sub) for key, sub in schema.get("properties", {}).items()}
    required = tuple(schema.get("required", ()))
    extra = schema.get("additionalProperties", True)
    if extra not in (True, False):
        raise ValueError("state schemas close an object with additionalProperties: false, or leave it open")

    def check(value: Any, where: str) -> str | None:
        if not isinstance(value, dict):
            return None
        for key in required:
            if key not in value:
                return f"{where}: {key!r} is missing"
        for key, item in value.items():
            sub = properties.get(key)
            if sub is None:
                if extra is False:
                    return f"{where}: {key!r} is not expected"
                continue
            problem = sub(item, f"{where}/{key}")
            if problem is not None:
                return problem
        return None

    return check


def _items(schema: Mapping[str, Any]) -> Check:
    prefix = [compile_schema(sub) for sub in schema.get("prefixItems", ())]
    rest = compile_schema(schema["items"]) if "items" in schema else None
    low, high = schema.get("minItems", 0), schema.get("maxItems")
    unique = schema.get("uniqueItems", False)

    def check(value: Any, where: str) -> str | None:
        if not isinstance(value, list):
            return None
        if len(value) < low or (high is not None and len(value) > high):
            return f"{where}: {len(value)} items is a wrong length"
        for index, item in enumerate(value):
            sub = prefix[index] if index < len(prefix) else rest
            if sub is not None:
                problem = sub(item, f"{where}/{index}")
                if problem is not None:
                    return problem
        if unique and len({_key(item) for item in value}) < len(value):
            return f"{where}: items repeat"
        return None

    return check


def _key(item: Any) -> Any:
    """A hashable stand-in for a JSON value, telling True from 1 (for uniqueItems)."""
    if isinstance(item, list):
        return ("list", tuple(_key(i) for i in item))
    if isinstance(item, dict):
        return ("dict", tuple(sorted((k, _key(v)) for k, v in item.items())))
    return (type(item), item)


#: The keywords understood, in groups read together, and the compiler of each group.
_KEYWORDS: tuple[tuple[tuple[str, ...], Callable[[Mapping[str, Any]], Check]], ...] = (
    (("type",), _type),
    (("enum",), _enum),
    (("anyOf",), _any_of),
    (("minimum", "maximum"), _range),
    (("pattern",), _pattern),
    (("properties", "required", "additionalProperties"), _properties),
    (("items", "prefixItems", "minItems", "maxItems", "uniqueItems"), _items),
)


# -- pieces of the variants' state schemas -----------------------------------------


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or null."""
    return {"anyOf": [{"type": "null"}, schema]}


def integer(low: int, high: int | None = None) -> dict[str, Any]:
    """A whole number from ``low`` (to ``high``, if given)."""
    schema: dict[str, Any] = {"type": "integer", "minimum": low}
    if high is not None:
        schema["maximum"] = high
    return schema


def array(items: dict[str, Any], length: int | None = None, *, most: int | None = None) -> dict[str, Any]:
    """A list of ``items``: exactly ``length`` of them, or at most ``most``."""
    schema: dict[str, Any] = {"type": "array", "items": items}
    if length is not None:
        schema["minItems"] = schema["maxItems"] = length
    if most is not None:
        schema["maxItems"] = most
    return schema


SEAT_SCHEMA = integer(0, 1)
#: ``to_move``: each seat at most once.
TO_MOVE_SCHEMA = {**array(SEAT_SCHEMA, most=2), "uniqueItems": True}
#: ``Outcome.as_dict()``, or null while the game runs.
OUTCOME_SCHEMA = nullable(
    {
        "type": "object",
        "properties": {
            "result": {"enum": ["win", "draw", "tie"]},
            "winner": nullable(SEAT_SCHEMA),
            "scores": nullable(array({"type": "integer"}, 2)),
            "reason": {"type": "string"},
        },
        "required": ["result", "winner", "scores", "reason"],
        "additionalProperties": False,
    }
)
