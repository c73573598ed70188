"""T-Tic-T-Tac-Toe moves: the JSON players send, the parsed actions, and their notation.

Squares are 1..25 from the upper left, row by row; blockages are named by their inner
line ("h2"), their two unit segments ("8|13+9|14") or the square they surround
("around 13"). See the variant's docstring for every move.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ...base import Move, require_int, require_mapping
from ...errors import RuleError
from . import geometry as geo
from .state import LETTERS, Action


def straight_wall_name(segments: tuple[int, int]) -> str:
    a, b = sorted(segments)
    return f"{geo.SEGMENT_NAMES[a]}+{geo.SEGMENT_NAMES[b]}"


#: Every Berlin Wall a player may draw: name -> segment mask.
WALLS: dict[str, int] = {
    **{straight_wall_name(pair): geo.mask_of(list(pair)) for pair in geo.STRAIGHT_WALLS},
    **{f"around {s}": geo.AROUND_MASK[s] for s in geo.SQUARES},
}


def target_fields(name: str) -> dict[str, Any]:
    """The move fields naming blockage ``name``: {"line": ..}, {"segments": [..]} or {"around": n}."""
    if name in geo.LINE_MASK:
        return {"line": name}
    if name.startswith("around "):
        return {"around": int(name.split()[1])}
    return {"segments": name.split("+")}


def move_of(action: Action) -> Move:
    """The canonical JSON move of an action."""
    kind = action[0]
    if kind == "place":
        return (
            {"action": "place", "square": action[1]}
            if action[2] is None
            else {"action": "place", "square": action[1], "symbol": action[2]}
        )
    if kind == "super":
        return {"action": "super", "square": action[1]}
    if kind in ("confirm", "take-back"):
        return {"action": kind}
    return {"action": kind, **target_fields(action[1])}


# -- parsing untrusted moves --------------------------------------------------------------

_TARGET_KEYS = ("line", "segments", "around")
ACTIONS = ("place", "curtain", "wall", "super", "snip", "tear-down", "checkpoint", "confirm", "take-back")


def _malformed(message: str) -> RuleError:
    return RuleError("malformed-move", message)


def _parse_square(value: Any) -> int:
    return require_int(value, 1, 25, "square")


def _parse_segment(value: Any) -> int:
    found = re.fullmatch(r"(\d{1,2})\|(\d{1,2})", value, re.ASCII) if isinstance(value, str) else None
    if found is None:
        raise _malformed('A unit segment is named by the two squares it separates, such as "8|13".')
    a, b = int(found.group(1)), int(found.group(2))
    segment = geo.segment_between(a, b) if 1 <= a <= 25 and 1 <= b <= 25 else None
    if segment is None:
        raise RuleError(
            "no-such-segment", f"Squares {a} and {b} do not share a side, so {value!r} is no segment."
        )
    return segment


def _parse_target(move: Mapping[str, Any], allowed: tuple[str, ...], action: str) -> str:
    """The name of the blockage a move names with "line", "segments" or "around"."""
    present = [k for k in _TARGET_KEYS if k in move]
    if len(present) != 1 or present[0] not in allowed:
        example = {"curtain": '"line": "h2"', "snip": '"line": "h2"'}.get(action, '"around": 13')
        raise _malformed(f"Say which {'line' if action == 'curtain' else 'blockage'} with {example}.")
    key = present[0]
    require_mapping(move, ("action", key))
    value = move[key]
    if key == "line":
        if not isinstance(value, str) or value not in geo.LINE_MASK:
            raise RuleError("no-such-line", "The eight inner lines are h1-h4 (across) and v1-v4 (down).")
        return value
    if key == "around":
        return f"around {_parse_square(value)}"
    if not isinstance(value, list) or len(value) != 2:
        raise _malformed('A straight Berlin Wall is two unit segments, such as ["8|13", "9|14"].')
    first, second = _parse_segment(value[0]), _parse_segment(value[1])
    if (first, second) not in geo.STRAIGHT_WALL_SET and (second, first) not in geo.STRAIGHT_WALL_SET:
        raise RuleError(
            "bad-wall",
            "A Berlin Wall is two adjacent unit segments in a straight line on one inner line "
            "(rule 4.05(a)), or all four sides of one square (4.05(b)).",
        )
    return straight_wall_name((first, second))


def parse_move(move: Any) -> Action:
    """The canonical action of an untrusted move; RuleError if it is not well formed."""
    if not isinstance(move, Mapping):
        raise _malformed('A move is an object such as {"action": "place", "square": 13}.')
    action = move.get("action")
    if not isinstance(action, str) or action not in ACTIONS:
        raise _malformed("The action must be one of " + ", ".join(ACTIONS) + ".")
    if action == "place":
        if "symbol" in move:
            require_mapping(move, ("action", "square", "symbol"))
            letter = move["symbol"]
            if not isinstance(letter, str) or letter not in LETTERS:
                raise _malformed('The symbol is "X" or "O".')
        else:
            require_mapping(move, ("action", "square"))
            letter = None
        return ("place", _parse_square(move["square"]), letter)
    if action == "super":
        require_mapping(move, ("action", "square"))
        corner = _parse_square(move["square"])
        if corner not in geo.SUPER_CORNERS:
            raise RuleError(
                "super-off-board",
                f"A super's 2x2 range is named by its upper-left square; from {corner} it would leave the board.",
            )
        return ("super", corner)
    if action in ("confirm", "take-back"):
        require_mapping(move, ("action",))
        return (action,)
    allowed = {
        "curtain": ("line",),
        "wall": ("segments", "around"),
        # Destroying and protecting name any blockage; the wrong tool is refused later.
        "snip": _TARGET_KEYS,
        "tear-down": _TARGET_KEYS,
        "checkpoint": _TARGET_KEYS,
    }[action]
    return (action, _parse_target(move, allowed, action))


def line_words(line: str) -> str:
    """Inner line ``line`` in words: "h1" is "between rows 1 and 2"."""
    k = int(line[1])
    return f"between {'rows' if line[0] == 'h' else 'columns'} {k} and {k + 1}"


def blockage_words(name: str) -> str:
    """Blockage ``name`` in words: "the Iron Curtain between rows 1 and 2",
    "the Berlin Wall around square 13", "the Berlin Wall separating squares 8, 9 from 13, 14"."""
    if name in geo.LINE_MASK:
        return f"the Iron Curtain {line_words(name)}"
    if name.startswith("around "):
        return f"the Berlin Wall around square {name.split()[1]}"
    pairs = sorted(geo.SEGMENT_SQUARES[geo.SEGMENT_BY_NAME[segment]] for segment in name.split("+"))
    one_side = ", ".join(str(a) for a, _ in pairs)
    other_side = ", ".join(str(b) for _, b in pairs)
    return f"the Berlin Wall separating squares {one_side} from {other_side}"


def describe_action(action: Action) -> str:
    """The action in words, for the history, the move list and the list of legal moves."""
    kind = action[0]
    if kind == "place":
        return f"{action[2]} on square {action[1]}" if action[2] else f"place on square {action[1]}"
    if kind == "super":
        return "super on squares " + ", ".join(str(s) for s in geo.super_range(action[1]))
    if kind == "curtain":
        return f"Iron Curtain on the line {line_words(action[1])}"
    if kind == "wall":
        return "Berlin Wall " + blockage_words(action[1]).removeprefix("the Berlin Wall ")
    if kind == "snip":
        return f"wire cutters: snip {blockage_words(action[1])}"
    if kind == "tear-down":
        return f"Ronald Reagan: tear down {blockage_words(action[1])}"
    if kind == "checkpoint":
        return f"Checkpoint Charlie on {blockage_words(action[1])}"
    return {"confirm": "confirm (pen lifted)", "take-back": "take back"}[kind]
