"""T-Tic-T-Tac-Toe's template context: the 5x5 board, what stands on its lines, and every
legal action as a target on the board.

The player to move chooses a tool (place a letter, Iron Curtain, Berlin Wall, super,
Checkpoint Charlie, destroy) and the tool's targets are drawn where they act: curtains on
the inner lines, straight walls on the lines' unit segments (two picks), walls around a
square on the square, supers on the corner their 2x2 range shares, checkpoints and
destructions on the standing blockages. Every target comes from the legal moves, so
nothing illegal is offered. The board is drawn by static/css/boards/t-tic-t-tac-toe.css; static/js/boards/t-tic-t-tac-toe.js
switches tools and builds the two-pick walls. Places are given in squares from the
upper left as classes (``x-1 y-2``, ``w-2`` / ``h-2`` long): the site's CSP allows no
inline styles.
"""

from __future__ import annotations

import json
from typing import Any

from ...boards import ListedMove, square_label
from . import geometry as geo
from .notation import blockage_words, describe_action, parse_move

#: The tools in the order of the tool bar: (key, name, what it does).
TOOLS = (
    ("place", "Place a letter", "Your letter in an empty square."),
    ("curtain", "Iron Curtain", "Blocks a whole line of the grid. Pick a line."),
    ("wall", "Berlin Wall", "Blocks two sides in a row (pick both) or a square's four sides (pick it)."),
    ("super", "Super", "Clears (gooshes) the opponent's letters in a 2x2 block. Pick the corner its four squares share."),
    ("checkpoint", "Checkpoint Charlie", "Two more full turns of safety for a blockage. Pick it."),
    ("destroy", "Destroy", "Wire cutters snip a curtain; Ronald Reagan tears down a wall. Pick it."),
)  # fmt: skip
_TOOL_OF = {"place": "place", "curtain": "curtain", "wall": "wall", "super": "super",
            "checkpoint": "checkpoint", "snip": "destroy", "tear-down": "destroy"}  # fmt: skip


def build_board(
    view: dict[str, Any], legal: list[ListedMove], seat: int | None, my_turn: bool
) -> dict[str, Any]:
    symbols = view["symbols"]
    by_tool: dict[str, list[ListedMove]] = {}
    pending_moves: dict[str, str] = {}
    for item in legal:
        move = item["move"]
        if item["kind"] in ("confirm", "take-back"):
            pending_moves[item["kind"]] = item["json"]
        elif item["kind"] == "place" and "symbol" in move:
            continue  # a bwah is a mistake, not a tool: it stays in the list of moves
        elif item["kind"] in _TOOL_OF:
            by_tool.setdefault(_TOOL_OF[item["kind"]], []).append(item)
    placeable = {i["move"]["square"] for i in by_tool.get("place", [])}
    # Placing the other letter (a bwah, rule 6.01) is legal: only the list of moves offers it.
    bwah = next((item["move"]["symbol"] for item in legal
                 if item["kind"] == "place" and "symbol" in item["move"]), None)

    events = view.get("history") or []
    last = _last_move_event(events, view.get("moves_made", 0))
    last_move = parse_move(last["move"]) if last else None
    gooshed = set(last["gooshed"]) if last and last["kind"] == "super" else set()
    last_range = set(geo.super_range(last_move[1])) if last_move and last_move[0] == "super" else set()
    win = set(view.get("winning_line") or [])

    cells = []
    for n, mark in enumerate(view["board"], start=1):
        label = square_label(n, mark)
        classes = []
        if n in win:
            classes.append("win")
        if last_move and last_move[0] == "place" and last_move[1] == n:
            classes.append("last")
        if n in gooshed:
            classes.append("gooshed")
            label += ", gooshed by the last move's super"
        elif n in last_range:
            classes.append("in-last-super")
        cells.append({"n": n, "mark": mark, "label": label, "legal": n in placeable, "classes": " ".join(classes)})

    tools = []
    if my_turn and not pending_moves:
        for key, name, hint in TOOLS:
            count = len(by_tool.get(key, []))
            if count:
                tools.append({"key": key, "name": name, "hint": hint, "count": count})

    checkpoints = {c["target"] for c in view.get("checkpoints") or []}
    standing = {b["name"] for b in view.get("blockages") or []}
    last_name = _target(last_move) if last_move and last_move[0] in ("curtain", "wall", "checkpoint") else None
    blockages = [_drawn_blockage(b, symbols, b["name"] in checkpoints, b["name"] == last_name)
                 for b in view.get("blockages") or []]  # fmt: skip
    # Curtains first: a wall on the same line is drawn (and picked) over it.
    blockages.sort(key=lambda b: b["kind"] != "curtain")

    return {
        "cells": cells,
        "tools": tools,
        # The hint names only what is offered: on move 1 placing a letter is the one action.
        "place_hint": "Click an empty square to place your letter"
        + (", or choose another action above." if len(tools) > 1 else "."),
        "bwah": bwah,
        "curtains": [_line_target(i) for i in by_tool.get("curtain", [])],
        "wall_segments": _segment_targets(by_tool.get("wall", [])),
        "wall_arounds": [_around_target(i) for i in by_tool.get("wall", []) if "around" in i["move"]],
        "supers": [_super_target(i, view, seat) for i in by_tool.get("super", [])],
        "checkpoint_targets": [_blockage_target(i) for i in by_tool.get("checkpoint", [])],
        "destroy_targets": [_blockage_target(i) for i in by_tool.get("destroy", [])],
        "blockages": blockages,
        "ghosts": _destroyed(events, standing, last),
        "supers_played": _supers_played(events, symbols, last),
        "last": _last_words(last, symbols),
        "pending": _pending(view, pending_moves),
        "specials": _specials(view),
    }


# -- where things are on the board (percent of its side) ----------------------------------


def _hbar(boundary: int, col: int, length: int) -> str:
    """A bar along horizontal boundary ``boundary`` (0 = top edge) from column ``col``."""
    return f"x-{col} y-{boundary} w-{length}"


def _vbar(boundary: int, row: int, length: int) -> str:
    return f"x-{boundary} y-{row} h-{length}"


def _box(square: int, size: int = 1) -> str:
    row, col = geo.row_col(square)
    return f"x-{col} y-{row} w-{size} h-{size}"


def _segment_shape(segment: int, length: int = 1) -> tuple[str, str]:
    """(orientation, position classes) of a bar starting at unit segment ``segment``."""
    line = geo.SEGMENT_LINE[segment]
    row, col = geo.row_col(geo.SEGMENT_SQUARES[segment][0])
    if line[0] == "h":
        return "h", _hbar(int(line[1]), col, length)
    return "v", _vbar(int(line[1]), row, length)


def _shape(name: str) -> tuple[str, str]:
    """(orientation "h" / "v" / "box", position classes) of blockage ``name``."""
    if name in geo.LINE_MASK:
        return ("h", _hbar(int(name[1]), 0, 5)) if name[0] == "h" else ("v", _vbar(int(name[1]), 0, 5))
    if name.startswith("around "):
        return "box", _box(int(name.split()[1]))
    first = min(geo.SEGMENT_BY_NAME[s] for s in name.split("+"))
    return _segment_shape(first, 2)


def _target(action: tuple[Any, ...]) -> str:
    return str(action[1])


# -- targets ------------------------------------------------------------------------------


def _line_target(item: ListedMove) -> dict[str, Any]:
    orient, place = _shape(item["move"]["line"])
    return {"orient": orient, "place": place, "label": item["label"], "json": item["json"]}


def _segment_targets(walls: list[ListedMove]) -> list[dict[str, Any]]:
    """Each unit segment of a legal straight wall, with the walls it can start (two picks)."""
    partners: dict[str, dict[str, Any]] = {}
    for item in walls:
        if "segments" not in item["move"]:
            continue
        a, b = item["move"]["segments"]
        partners.setdefault(a, {})[b] = item["move"]
        partners.setdefault(b, {})[a] = item["move"]
    targets = []
    for name in sorted(partners, key=geo.SEGMENT_BY_NAME.__getitem__):
        orient, place = _segment_shape(geo.SEGMENT_BY_NAME[name])
        a, b = name.split("|")
        side = "below" if orient == "h" else "right of"
        targets.append(
            {
                "segment": name,
                "orient": orient,
                "place": place,
                "label": f"Berlin Wall: the side between squares {a} and {b} ({b} is {side} {a})",
                "partners": json.dumps(partners[name]),
            }
        )
    return targets


def _around_target(item: ListedMove) -> dict[str, Any]:
    return {"place": _box(item["move"]["around"]), "label": item["label"], "json": item["json"]}


def _super_target(item: ListedMove, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
    corner = item["move"]["square"]
    area = geo.super_range(corner)
    row, col = geo.row_col(corner)
    mine = view["symbols"][seat] if seat is not None else None
    board = view["board"]
    goosh = [s for s in area if board[s - 1] not in (None, mine)]
    fill = [s for s in area if board[s - 1] is None] if view.get("version") == "2.0" else []
    words = item["label"] + (f": gooshes {', '.join(map(str, goosh))}" if goosh else ": gooshes nothing")
    if fill:
        words += f", writes {mine} on {', '.join(map(str, fill))}"
    return {
        "place": f"x-{col + 1} y-{row + 1}",
        "range_place": _box(corner, 2),
        "label": words,
        "json": item["json"],
        "range": " ".join(map(str, area)),
        "goosh": " ".join(map(str, goosh)),
        "fill": " ".join(map(str, fill)),
    }


def _blockage_target(item: ListedMove) -> dict[str, Any]:
    action = parse_move(item["move"])
    orient, place = _shape(action[1])
    return {"orient": orient, "place": place, "label": item["label"], "json": item["json"]}


# -- what stands and what happened --------------------------------------------------------


def _owner(owner: int | None, symbols: list[str]) -> tuple[str, str]:
    """(css class, words) of a blockage's owner."""
    if owner is None:
        return "drawer", "the board drawer's"
    return f"seat-{owner}", f"{symbols[owner]}'s"


def _drawn_blockage(
    blockage: dict[str, Any], symbols: list[str], checkpoint: bool, last: bool
) -> dict[str, Any]:
    orient, place = _shape(blockage["name"])
    owner_class, owner_words = _owner(blockage["owner"], symbols)
    words = f"{owner_words} {blockage_words(blockage['name']).removeprefix('the ')}"
    left = blockage["protected_moves_left"] if blockage["protected"] else 0
    if left:
        words += f", impregnable for {left} more move{'s' if left != 1 else ''}"
    else:
        words += ", may be destroyed"
    if checkpoint:
        words += ", with a Checkpoint Charlie"
    classes = [blockage["kind"], orient, owner_class]
    if left:
        classes.append("protected")
    if last:
        classes.append("last")
    return {"kind": blockage["kind"], "classes": " ".join(classes), "place": place, "label": words,
            "left": left, "checkpoint": checkpoint}  # fmt: skip


def _last_move_event(events: list[dict[str, Any]], moves_made: int) -> dict[str, Any] | None:
    """The event of the last move made (not a take-back or a checkpoint disappearing)."""
    for event in reversed(events):
        if event.get("move") and event["ply"] == moves_made and event["kind"] not in ("take-back",):
            return event
    return None


def _destroyed(events: list[dict[str, Any]], standing: set[str], last: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The blockages destroyed in this game and not standing again, faded, with their move."""
    ghosts: dict[str, dict[str, Any]] = {}
    for event in events:
        if event["kind"] in ("snip", "tear-down") and event.get("move"):
            name = _target(parse_move(event["move"]))
            orient, place = _shape(name)
            done = "snipped" if event["kind"] == "snip" else "torn down"
            tool = "snipped by wire cutters" if event["kind"] == "snip" else "torn down by Ronald Reagan"
            ghosts[name] = {
                "classes": f"{orient} {'last' if event is last else ''}".strip(),
                "place": place,
                "label": f"{blockage_words(name)[0].upper()}{blockage_words(name)[1:]}: "
                f"{tool} on move {event['ply']}",
                "tag": f"{done}, move {event['ply']}",
            }
    return [g for name, g in ghosts.items() if name not in standing]


def _supers_played(
    events: list[dict[str, Any]], symbols: list[str], last: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """Every super of the game, drawn as the enlarged letter over its 2x2 range."""
    played = []
    for event in events:
        if event["kind"] == "super" and event.get("move"):
            corner = event["move"]["square"]
            gooshed = event.get("gooshed") or []
            played.append(
                {
                    "letter": symbols[event["seat"]],
                    "place": _box(corner, 2),
                    "last": event is last,
                    "label": f"{symbols[event['seat']]}'s super on move {event['ply']} "
                    f"({', '.join(map(str, geo.super_range(corner)))}): "
                    + (f"gooshed {', '.join(map(str, gooshed))}" if gooshed else "gooshed nothing"),
                }
            )
    return played


def _last_words(last: dict[str, Any] | None, symbols: list[str]) -> str:
    if not last:
        return ""
    who = symbols[last["seat"]] if last["seat"] is not None else "The board drawer"
    text = describe_action(parse_move(last["move"]))
    if last["kind"] == "super":
        gooshed = last.get("gooshed") or []
        text += f": gooshed {', '.join(map(str, gooshed))}" if gooshed else ": nothing to goosh"
    if last["kind"] == "bwah":
        text += " (a bwah: the opponent's letter)"
    return f"Move {last['ply']}, {who}: {text}."


def _pending(view: dict[str, Any], moves: dict[str, str]) -> dict[str, Any] | None:
    pending = view.get("pending")
    if not pending:
        return None
    action = parse_move(pending["move"])
    shape: dict[str, Any] = {}
    if action[0] == "place":
        shape = {"square": action[1]}
    elif action[0] == "super":
        shape = {"orient": "box", "place": _box(action[1], 2)}
    elif action[0] in ("curtain", "wall", "checkpoint", "snip", "tear-down"):
        shape = dict(zip(("orient", "place"), _shape(action[1]), strict=True))
    return {"text": pending["text"], "confirm": moves.get("confirm"), "take_back": moves.get("take-back"), **shape}


def _specials(view: dict[str, Any]) -> list[dict[str, Any]]:
    names = {"curtain": "Iron Curtain", "wall": "Berlin Wall", "super": "super", "checkpoint": "Checkpoint Charlie"}
    rows = []
    for seat, left in enumerate(view.get("specials_left") or []):
        rows.append(
            {
                "letter": view["symbols"][seat],
                "left": [names[k] for k, v in left.items() if v],
            }
        )
    return rows
