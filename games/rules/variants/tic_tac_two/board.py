"""Tic Tac Two's template context: the draft as cards, the 4x4 grid with its features,
every action's targets on the grid (taken from the listed legal moves only, so an
illegal target is never offered), and what the last turn did, in marks and words.

Geometry for the template: a border is ``("v", row, k)`` (between columns k-1 and k)
or ``("h", k, col)`` (between rows k-1 and k), as in ``geometry``; the CSS places a
border's bar or hit area from ``orient``, ``x`` and ``y`` (``x``/``y``: the column and
row of a horizontal border's cell and of a vertical border's boundary, or the reverse).
"""

from __future__ import annotations

import json
from typing import Any

from ...boards import ListedMove, square_label
from .engine import ACTION_NAMES, ACTIONS
from .geometry import SIZE, Border, border_cells, border_of

#: What each card says: what the action does and its edge cases, in two sentences.
CARD_TEXT = {
    "double": (
        "Write one extra letter of yours before your turn's letter. It goes where a letter may: an "
        "empty square, an Intersect Space without your letter, or your own Dibs Space."
    ),
    "swap": (
        "Exchange two touching squares (diagonals count): an X with an O, or a letter with an empty "
        "square. Intersect Spaces and waiting Dibs Spaces cannot be swapped."
    ),
    "shift": (
        "Push a whole row or column one square; the end square wraps round to the other end. Walls "
        "across the line stay and fall over backwards, erasing the letters they land on; a line with "
        "a waiting Dibs Space cannot move."
    ),
    "dibs": (
        "Reserve a square: when you write there later, your letter replaces everything on it. Until "
        "then it cannot be shifted, swapped or erased; you may reserve and write in the same turn."
    ),
    "intersect": (
        "Mark an empty square or a letter so X and O can share it: a square holding both counts in "
        "both players' lines. It moves with a Shift, never with a Swap."
    ),
    "wall": (
        "Stand a Wall on a border between squares: it blocks the row or column it crosses (not "
        "diagonals; an edge Wall blocks nothing). Later you may topple it onto a square beside it "
        "to erase that square's letters, at no cost."
    ),
}

TOPPLE_TEXT = (
    "Topple one of your standing Walls onto a square beside it: the square's letters are erased "
    "(not a Dibs Space's, not Intersect or Void markers). It uses no action; you may write there after."
)

#: What the page says while an action is being aimed.
AIM_HELP = {
    "double": "Double: choose the square for your extra letter.",
    "swap": "Swap: choose the first square, then a touching square to exchange it with.",
    "shift": "Shift: choose an arrow at the grid's edge; it pushes that row or column one square.",
    "dibs": "Dibs Space: choose the square to reserve.",
    "intersect": "Intersect Space: choose the square X and O will share.",
    "wall": "Wall: choose a border between squares (or on the edge) for your Wall.",
    "topple": "Topple: choose the arrow pointing onto the square your Wall falls on.",
}

ARROWS = {"left": "←", "right": "→", "up": "↑", "down": "↓"}


def build_board(
    view: dict[str, Any], legal: list[ListedMove], seat: int | None, my_turn: bool
) -> dict[str, Any]:
    letters = view["letters"]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for item in legal:  # by the move's type (a listed "kind" is a pick's action)
        by_kind.setdefault(item["move"]["type"], []).append(item["move"])
    on_squares = "void" if view["phase"] == "void" else "write"
    square_moves = {m["cell"]: m for m in by_kind.get(on_squares, [])}
    per_square = {
        action: {m["cell"]: m for m in by_kind.get(action, [])} for action in ("double", "dibs", "intersect")
    }
    partners: dict[int, list[int]] = {}
    for m in by_kind.get("swap", []):
        a, b = m["cells"]
        partners.setdefault(a, []).append(b)
        partners.setdefault(b, []).append(a)

    voids = set(view.get("voids") or [])
    intersects = set(view.get("intersects") or [])
    dibs = {d["cell"]: d["owner"] for d in view.get("dibs") or []}
    walls_of: dict[int, list[str]] = {}
    for wall in view.get("walls") or []:
        for n, side in _both_names(wall["cell"], wall["side"]):
            walls_of.setdefault(n, []).append(f"{letters[wall['owner']]}'s Wall on its {side}")
    win = {c for line in view.get("winning_lines") or [] for c in line}
    recent = view.get("last_turn") or {"recent": [], "fallen": []}
    marks, shifted = _recent_marks(recent["recent"], recent["fallen"])

    cells = []
    for n, mark in enumerate(view["board"], start=1):
        extras = (["Void"] if n in voids else []) + (["Intersect Space"] if n in intersects else [])
        if n in dibs:
            extras.append(f"{letters[dibs[n]]}'s Dibs Space")
        extras += walls_of.get(n, [])
        extras += marks.get(n, {}).get("words", [])
        default = square_moves.get(n)
        cells.append(
            {
                "n": n,
                "mark": mark,
                "legal": default is not None,
                "move": json.dumps(default) if default else "",
                "void": n in voids,
                "win": n in win,
                "intersect": n in intersects,
                "dibs": letters[dibs[n]] if n in dibs else "",
                "recent": " ".join(
                    [*marks.get(n, {}).get("classes", []), *(["t2-two"] if mark and len(mark) == 2 else [])]
                ),
                "badge": marks.get(n, {}).get("badge", ""),
                "targets": {a: json.dumps(per_square[a][n]) for a in per_square if n in per_square[a]},
                "swap": " ".join(str(p) for p in sorted(partners.get(n, []))),
                "label": square_label(n, mark) + "".join(f", {e}" for e in extras),
            }
        )

    tools = _tools(by_kind)
    return {
        "phase": view["phase"],
        "cells": cells,
        "cards": _cards(view, by_kind.get("pick", [])) if view["phase"] == "draft" else [],
        "hands": _hands(view),
        "tools": tools,
        "aiming": my_turn and bool(tools),
        "waiting_tools": _waiting_tools(view, seat, my_turn, tools),
        "walls": [_border_item(w["cell"], w["side"], letters[w["owner"]]) for w in view.get("walls") or []],
        "fallen": [_border_item(f["cell"], f["side"], letters[f["owner"]]) for f in recent["fallen"]],
        "wall_targets": [
            dict(
                _border_item(m["cell"], m["side"], ""),
                move=json.dumps(m),
                label=f"Stand your Wall {_border_words(m['cell'], m['side'])}",
            )
            for m in by_kind.get("wall", [])
        ],
        "topple_targets": [_topple_item(m) for m in by_kind.get("topple", [])],
        "shift_targets": [_shift_item(m) for m in by_kind.get("shift", [])],
        "shifted": _shift_item(shifted) if shifted else None,
        "notes": _notes(recent, letters),
    }


def _tools(by_kind: dict[str, list[dict[str, Any]]]) -> list[dict[str, str]]:
    """The actions usable now, each once (only those with a legal target), topple last."""
    return [
        {
            "action": a,
            "name": ACTION_NAMES.get(a, "Topple a Wall"),
            "help": AIM_HELP[a],
            "text": CARD_TEXT.get(a, TOPPLE_TEXT),
        }
        for a in (*ACTIONS, "topple")
        if by_kind.get(a)
    ]


def _waiting_tools(view: dict[str, Any], seat: int | None, my_turn: bool, tools: list[Any]) -> str:
    """Why the viewer's held actions are not offered now, in words (or "")."""
    if seat is None or view["phase"] != "play" or tools or not my_turn:
        return ""
    if not view["actions"][seat]["remaining"]:
        return ""
    if view.get("first_turn"):
        return "Your special actions can be used from your second turn on: write your first letter."
    if view.get("action_used_this_turn"):
        return "One special action per turn: now write your letter, which ends your turn."
    return ""


def _cards(view: dict[str, Any], picks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    takeable = {m["action"]: m for m in picks}
    cards = []
    for action in ACTIONS:
        holders = [
            view["letters"][hand["seat"]]
            for hand in view["actions"]
            for held in hand["held"]
            if held == action
        ]
        move = takeable.get(action)
        cards.append(
            {
                "action": action,
                "name": ACTION_NAMES[action],
                "text": CARD_TEXT[action],
                "holders": holders,
                "move": json.dumps(move) if move else "",
            }
        )
    return cards


def _hands(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Each player's drafted cards, used ones marked (a multiset in the Meta variation)."""
    hands = []
    for hand in view["actions"]:
        left = list(hand["remaining"])
        cards = []
        for action in hand["held"]:
            unused = action in left
            if unused:
                left.remove(action)
            cards.append(
                {
                    "action": action,
                    "name": ACTION_NAMES[action],
                    "text": CARD_TEXT[action],
                    "used": not unused,
                }
            )
        hands.append({"seat": hand["seat"], "letter": hand["letter"], "cards": cards})
    return hands


def _both_names(cell: int, side: str) -> list[tuple[int, str]]:
    """The squares a border touches, with the side of each it lies on."""
    border = border_of(cell - 1, side)
    names: list[tuple[int, str]] = []
    for i in border_cells(border):
        if i is not None:
            names.extend((i + 1, s) for s in ("top", "bottom", "left", "right") if border_of(i, s) == border)
    return names


def _geometry(border: Border) -> dict[str, Any]:
    # ("v", row, k): boundary k across, in row `row`; ("h", k, col): column col, boundary k down.
    kind, a, b = border
    return {"orient": kind, "x": b, "y": a}


def _border_words(cell: int, side: str) -> str:
    before, after = border_cells(border_of(cell - 1, side))
    if before is None or after is None:
        return f"on the {side} edge of square {cell}"
    return f"between squares {before + 1} and {after + 1}"


def _border_item(cell: int, side: str, letter: str) -> dict[str, Any]:
    return {
        **_geometry(border_of(cell - 1, side)),
        "id": f"{cell}-{side}",
        "letter": letter,
        "words": _border_words(cell, side),
    }


def _topple_item(move: dict[str, Any]) -> dict[str, Any]:
    """A topple target: an arrow just inside the square the Wall would fall onto."""
    cell, side = move["cell"], move["side"]
    geometry = _geometry(border_of(cell - 1, side))
    arrow = {"left": "→", "right": "←", "top": "↓", "bottom": "↑"}[side]  # from the Wall into the square
    return {
        **geometry,
        "toward": "after" if side in ("left", "top") else "before",
        "move": json.dumps(move),
        "arrow": arrow,
        "label": f"Topple your Wall {_border_words(cell, side)} onto square {cell}, erasing its letters",
    }


def _shift_item(move: dict[str, Any]) -> dict[str, Any]:
    line, index, direction = move["line"], move["index"], move["direction"]
    return {
        "line": line,
        "index": index,
        "direction": direction,
        "arrow": ARROWS[direction],
        "move": json.dumps(move),
        "squares": " ".join(str(n) for n in _line_squares(line, index)),
        "label": f"Shift {line} {index} {direction}",
    }


def _line_squares(line: str, index: int) -> list[int]:
    if line == "row":
        return [(index - 1) * SIZE + c + 1 for c in range(SIZE)]
    return [r * SIZE + index for r in range(SIZE)]


def _recent_marks(
    recent: list[dict[str, Any]], fallen: list[dict[str, Any]]
) -> tuple[dict[int, dict[str, Any]], dict[str, Any] | None]:
    """Per square: the classes, badge and words of what the last turn did there; and
    the last turn's Shift, if any."""
    marks: dict[int, dict[str, Any]] = {}
    shifted = None

    def mark(n: int, cls: str, words: str, badge: str = "") -> None:
        entry = marks.setdefault(n, {"classes": [], "words": [], "badge": ""})
        entry["classes"].append(cls)
        entry["words"].append(words)
        entry["badge"] = badge or entry["badge"]

    for entry in recent:
        move = entry["move"]
        kind = move["type"]
        if kind == "write":
            mark(move["cell"], "last", "just written")
        elif kind == "double":
            mark(move["cell"], "last", "just written with Double", "2×")
        elif kind == "swap":
            for n in move["cells"]:
                mark(n, "t2-swapped", "just swapped", "⇄")
        elif kind == "shift":
            shifted = move
            for n in _line_squares(move["line"], move["index"]):
                mark(n, "t2-shifted", f"just shifted {move['direction']}")
        elif kind in ("dibs", "intersect", "void"):
            mark(move["cell"], "t2-placed", f"{ACTION_NAMES.get(kind, 'Void')} just placed")
    for wall in fallen:
        if wall["onto"] is not None:
            mark(wall["onto"], "t2-erased", "a toppled Wall just fell on it", "✕" if wall["erased"] else "")
    return marks, shifted


def _notes(recent: dict[str, Any], letters: list[str]) -> list[str]:
    """The last turn in words, one sentence a step, then the Walls that fell."""
    notes = []
    for entry in recent["recent"]:
        who, move = letters[entry["seat"]], entry["move"]
        kind = move["type"]
        if kind == "pick":
            notes.append(f"{who} took {ACTION_NAMES[move['action']]}.")
        elif kind == "void":
            notes.append(f"{who} placed a Void on square {move['cell']}.")
        elif kind == "write":
            notes.append(f"{who} wrote {who} on square {move['cell']}.")
        elif kind == "double":
            notes.append(f"{who} used Double: an extra {who} on square {move['cell']}.")
        elif kind == "swap":
            a, b = move["cells"]
            notes.append(f"{who} used Swap: squares {a} and {b} exchanged.")
        elif kind == "shift":
            end = "first" if move["direction"] in ("left", "up") else "last"
            notes.append(
                f"{who} used Shift: {move['line']} {move['index']} moved {move['direction']} "
                f"(its {end} square wrapped round)."
            )
        elif kind == "dibs":
            notes.append(f"{who} placed a Dibs Space on square {move['cell']}.")
        elif kind == "intersect":
            notes.append(f"{who} placed an Intersect Space on square {move['cell']}.")
        elif kind == "wall":
            notes.append(f"{who} stood a Wall {_border_words(move['cell'], move['side'])}.")
        elif kind == "topple":
            notes.append(f"{who} toppled their own Wall (which uses no action):")
    for fallen in recent["fallen"]:
        where = _border_words(fallen["cell"], fallen["side"])
        if fallen["onto"] is None:
            what = "fell off the grid"
        else:
            erased = " and ".join(fallen["erased"]) if fallen["erased"] else ""
            what = f"fell onto square {fallen['onto']}" + (
                f", erasing its {erased}" if erased else ", erasing nothing"
            )
        notes.append(f"{letters[fallen['owner']]}'s Wall {where} {what} (shown dashed).")
    return notes
