"""JSON read with its numbers held to what JSON and the platform can hold, for the API's
bodies (config.parsers) and the websockets' frames (accounts.realtime) alike: one way of
reading numbers, with the refusal said in words.

Python's ``json`` reads three things no client should send: an integer of more than
4,300 digits raises a ValueError about Python's own settings (the socket called such a
frame "not valid JSON", which it is); a number past the largest float (``1e400``) is
read as infinity; and ``NaN``, ``Infinity`` and ``-Infinity``, which are not JSON
(RFC 8259), are read as floats. Infinity and NaN then reach fields and engines that
expect numbers, and a frame echoing them back is not JSON either.

It also refuses an object that names a key twice (``{"type": "ping", "type": "move"}``):
Python keeps the last silently, where a proxy, a log reader or another JSON library may
keep the first, so the frame or body that was checked would not be the one acted on
(an outside probe, 2026-12-01). RFC 8259 leaves such objects' meaning open; no client
needs one."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

#: Past this size a JSON number is no finite float (sys.float_info.max, about 1.8e308).
LARGEST = f"{sys.float_info.max:.1e}".replace("e+", "e")


class NumberRefused(ValueError):
    """A number (or a ``NaN``/``Infinity``) the reader refuses; the message says why."""


class DuplicateKey(ValueError):
    """An object names one key twice; the message says which."""


def unique_keys(pairs: list[tuple[str, Any]], *, where: str = "the body") -> dict[str, Any]:
    """An object's members as a dict, refused if a key comes twice."""
    members: dict[str, Any] = {}
    for key, value in pairs:
        if key in members:
            raise DuplicateKey(f"An object in {where} names the key {json.dumps(key)} twice: send each key once.")
        members[key] = value
    return members


def whole_number(text: str, *, where: str = "the body") -> int:
    """A JSON integer. Python refuses one of more than 4,300 digits (its guard against
    slow conversions) with a sentence about its own settings; say it plainly."""
    try:
        return int(text)
    except ValueError as exc:
        digits = sys.get_int_max_str_digits()
        raise NumberRefused(f"A number in {where} is too long: at most {digits:,} digits.") from exc


def finite_number(text: str, *, where: str = "the body") -> float:
    """A JSON number with a fraction or an exponent, refused past the largest float
    (``1e400``), which Python reads as infinity."""
    value = float(text)
    if not math.isfinite(value):
        raise NumberRefused(f"A number in {where} is too large: past about {LARGEST} it is not a finite number.")
    return value


def no_constant(name: str, *, where: str = "the body") -> Any:
    """``NaN``, ``Infinity``, ``-Infinity``: not JSON numbers."""
    raise NumberRefused(f"{name} in {where} is not a JSON number: JSON has no NaN or Infinity.")


def readers(where: str) -> dict[str, Any]:
    """The readers for ``json.load``/``json.loads`` (numbers, and objects' keys), saying
    ``where`` the refused number or key was."""
    return {
        "object_pairs_hook": lambda pairs: unique_keys(pairs, where=where),
        "parse_int": lambda text: whole_number(text, where=where),
        "parse_float": lambda text: finite_number(text, where=where),
        "parse_constant": lambda name: no_constant(name, where=where),
    }


def loads(text: str, *, where: str) -> Any:
    """``json.loads`` with the numbers above refused (NumberRefused, a ValueError), and
    a key named twice in one object (DuplicateKey, a ValueError)."""
    return json.loads(text, **readers(where))
