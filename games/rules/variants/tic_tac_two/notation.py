"""Moves as players send them (JSON dicts) and the short notation of game records.

Every move is an object with a ``"type"``; squares are 1..16 from the upper left:

    {"type": "pick", "action": "swap"}                      pick Swap
    {"type": "void", "cell": 6}                             void 6
    {"type": "write", "cell": 6}                            write 6
    {"type": "double", "cell": 6}                           double 6
    {"type": "swap", "cells": [6, 11]}                      swap 6<>11
    {"type": "shift", "line": "row", "index": 2, "direction": "right"}   shift row 2 right
    {"type": "dibs", "cell": 6}                             dibs 6
    {"type": "intersect", "cell": 6}                        intersect 6
    {"type": "wall", "cell": 6, "side": "right"}            wall 6 right
    {"type": "topple", "cell": 7, "side": "left"}           topple onto 7 from left

A Wall is named by a square and a side: the border right of 6 is also the border left
of 7. To topple a Wall, name the square it falls onto (whose letters it erases) and the
side of that square the Wall stands on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...base import Move, require_int, require_mapping
from ...errors import RuleError
from .engine import ACTION_NAMES, ACTIONS, Step
from .geometry import CELL_COUNT, SIDES, SIZE, border_of, canonical_name, side_towards

#: The fields of each type of move.
FIELDS: dict[str, tuple[str, ...]] = {
    "pick": ("type", "action"),
    "void": ("type", "cell"),
    "write": ("type", "cell"),
    "double": ("type", "cell"),
    "swap": ("type", "cells"),
    "shift": ("type", "line", "index", "direction"),
    "dibs": ("type", "cell"),
    "intersect": ("type", "cell"),
    "wall": ("type", "cell", "side"),
    "topple": ("type", "cell", "side"),
}

DIRECTIONS = {"row": {"left": -1, "right": 1}, "column": {"up": -1, "down": 1}}


def parse(move: Any) -> Step:
    """The engine step of an untrusted move; RuleError if it is not a well-formed move."""
    if not isinstance(move, Mapping):
        raise RuleError("malformed-move", 'A move is an object such as {"type": "write", "cell": 6}.')
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise RuleError("unknown-move", "A move's type is one of: " + ", ".join(FIELDS) + ".")
    require_mapping(move, FIELDS[kind])
    if kind == "pick":
        action = move["action"]
        if not isinstance(action, str) or action not in ACTIONS:
            raise RuleError("unknown-action", "The special actions are: " + ", ".join(ACTIONS) + ".")
        return ("pick", action)
    if kind == "swap":
        pair = move["cells"]
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise RuleError(
                "malformed-move", 'Swap names two squares, such as {"type": "swap", "cells": [6, 11]}.'
            )
        a, b = (_cell(value) for value in pair)
        if a == b:
            raise RuleError("malformed-move", "Swap names two different squares.")
        return ("swap", min(a, b), max(a, b))
    if kind == "shift":
        line = move["line"]
        if not isinstance(line, str) or line not in DIRECTIONS:
            raise RuleError("malformed-move", 'Shift a "row" or a "column" (never a diagonal).')
        n = require_int(move["index"], 1, SIZE, line + " number") - 1
        direction = move["direction"]
        if not isinstance(direction, str) or direction not in DIRECTIONS[line]:
            ways = " or ".join(f'"{w}"' for w in DIRECTIONS[line])
            raise RuleError("bad-direction", f"A {line} is shifted {ways}.")
        return ("shift", line, n, DIRECTIONS[line][direction])
    i = _cell(move["cell"])
    if kind in ("wall", "topple"):
        side = move["side"]
        if not isinstance(side, str) or side not in SIDES:
            raise RuleError("malformed-move", "A side is one of: " + ", ".join(SIDES) + ".")
        border = border_of(i, side)
        return ("wall", border) if kind == "wall" else ("topple", border, i)
    return (kind, i)


def _cell(value: Any) -> int:
    return require_int(value, 1, CELL_COUNT, "square") - 1


def to_move_dict(step: Step) -> Move:
    """The canonical JSON move of an engine step."""
    kind = step[0]
    if kind == "pick":
        return {"type": "pick", "action": step[1]}
    if kind == "swap":
        return {"type": "swap", "cells": [step[1] + 1, step[2] + 1]}
    if kind == "shift":
        _, line, n, d = step
        direction = next(w for w, v in DIRECTIONS[line].items() if v == d)
        return {"type": "shift", "line": line, "index": n + 1, "direction": direction}
    if kind == "wall":
        i, side = canonical_name(step[1])
        return {"type": "wall", "cell": i + 1, "side": side}
    if kind == "topple":
        return {"type": "topple", "cell": step[2] + 1, "side": side_towards(step[1], step[2])}
    return {"type": kind, "cell": step[1] + 1}


def describe(move: Any) -> str:
    """Short human notation of a move, e.g. "shift row 2 right"; junk is shown as is."""
    try:
        step = parse(move)
    except RuleError:
        return str(move)
    canonical = to_move_dict(step)
    kind = step[0]
    if kind == "pick":
        return f"pick {ACTION_NAMES[step[1]]}"
    if kind == "swap":
        return f"swap {step[1] + 1}<>{step[2] + 1}"
    if kind == "shift":
        return f"shift {canonical['line']} {canonical['index']} {canonical['direction']}"
    if kind == "wall":
        return f"wall {canonical['cell']} {canonical['side']}"
    if kind == "topple":
        return f"topple onto {canonical['cell']} from {canonical['side']}"
    return f"{kind} {canonical['cell']}"
