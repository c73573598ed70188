"""Tic Tac Two's house rules in words, and its presets (the text's Meta and Void variations)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise
from typing import Any

from ... import results
from ...base import Preset
from ...words import letter_of, square_of, square_words
from .engine import ACTION_NAMES

PRESETS: tuple[Preset, ...] = (
    Preset("tic-tac-two-standard", "tic-tac-two", "Tic Tac Two: standard rules", "Tic Tac Two rules"),
    Preset("tic-tac-two-meta", "tic-tac-two", "Tic Tac Two: Meta variation", "Tic Tac Two, variations",
           {"meta": True}),
    Preset("tic-tac-two-void", "tic-tac-two", "Tic Tac Two: Void variation", "Tic Tac Two, variations",
           {"void": True}),
)  # fmt: skip


def describe_rules(options: Mapping[str, Any]) -> list[str]:
    lines = [
        "Tic Tac Two on a 4x4 grid: four in a row wins.",
        "Before play each player drafts three special actions, O first; X writes the first letter.",
    ]
    if options["meta"]:
        lines.append(
            "Meta variation: a player may pick actions the opponent chose, and the same action "
            "more than once."
        )
    if options["void"]:
        lines.append("Void variation: before play each player places a Void, X first.")
    return lines


def opening_words(options: Mapping[str, Any]) -> str:
    """The draft starts with O, the letters with X (and, in the Void variation, the Voids)."""
    if options["void"]:
        return "O picks the first special action, X places the first Void and writes the first letter"
    return "O picks the first special action and X writes the first letter"


def describe_result(view: Mapping[str, Any], result: Mapping[str, Any], names: results.Names) -> str:
    """"Lucia (X) wins with four in a row on row 2." When both connect at once, each line
    is named; a draw for want of room keeps the engine's words, with the players' names."""
    if not results.ended_by_rules(view, result):
        return results.default_sentence(view, result, names)
    labels = results.seat_labels(view, names)
    head = results.headline(result, labels)
    lines = view.get("winning_lines") or []
    letters = view.get("letters") or ["X", "O"]
    if result.get("result") == "win" and lines:
        winner = result["winner"]
        line = _line_of(view, lines, letters[winner]) or lines[0]
        return f"{head} with four in a row on {results.line_name(line, 4)}."
    if lines:
        held = [
            f"{letters[seat]} on {results.line_name(line, 4)}"
            for seat in (0, 1)
            if (line := _line_of(view, lines, letters[seat])) is not None
        ]
        if len(held) == 2:
            return f"{head}: both connected four in a row at the same moment ({results.and_list(held)})."
    return results.default_sentence(view, result, names)


def _line_of(view: Mapping[str, Any], lines: list[list[int]], letter: str) -> list[int] | None:
    """The first of ``lines`` whose squares all hold ``letter`` (an Intersect holds both)."""
    board = view.get("board") or []
    for line in lines:
        if all(letter in (board[n - 1] or "") for n in line):
            return line
    return None


# -- the move list's words (Variant.describe_move_line) --------------------

# Tic Tac Two: a 4x4 grid, a draft of special actions, Walls on the borders.

#: Where the square across a side is: (rows, columns) to move.
T2_SIDES = {"top": (-1, 0), "bottom": (1, 0), "left": (0, -1), "right": (0, 1)}


def _t2_neighbour(square: int, side: Any) -> int | None:
    """The square across ``side`` of ``square``; None off the grid (an edge)."""
    if side not in T2_SIDES:
        raise ValueError(side)
    row, column = divmod(square - 1, 4)
    dr, dc = T2_SIDES[side]
    if not (0 <= row + dr < 4 and 0 <= column + dc < 4):
        return None
    return (row + dr) * 4 + column + dc + 1


def _t2_border(square: int, side: str) -> str:
    """A Wall's border in words: "between squares 7 and 8 (row 2, between columns 3 and
    4)", "on the left edge of square 5 (row 2, column 1)"."""
    across = _t2_neighbour(square, side)
    if across is None:
        return f"on the {side} edge of {square_words(square, 4)}"
    a, b = sorted((square, across))
    row, column = divmod(a - 1, 4)
    if b - a == 1:
        return f"between squares {a} and {b} (row {row + 1}, between columns {column + 1} and {column + 2})"
    return f"between squares {a} and {b} (column {column + 1}, between rows {row + 1} and {row + 2})"


def _t2_shift(move: Mapping[str, Any]) -> str:
    """A Shift from where to where: "column 1 down one square: 1 to 5, 5 to 9, 9 to 13, and
    13 round to 1"."""
    line, index, direction = move["line"], move["index"], move["direction"]
    if type(index) is not int or not 1 <= index <= 4:
        raise ValueError(index)
    if line == "row" and direction in ("left", "right"):
        squares = [(index - 1) * 4 + c for c in range(1, 5)]
    elif line == "column" and direction in ("up", "down"):
        squares = [index + 4 * r for r in range(4)]
    else:
        raise ValueError(move)
    if direction in ("left", "up"):
        squares.reverse()
    steps = [f"{a} to {b}" for a, b in pairwise(squares)]
    return (f"Shift: {line} {index} {direction} one square: " + ", ".join(steps)
            + f", and {squares[-1]} round to {squares[0]}")


def move_line(move: Mapping[str, Any], seat: int, view: Mapping[str, Any], ply: int) -> str:
    """"The sequel Tic Tac Toe needed"'s words: cards taken in the draft, letters written,
    and each special action with what it moved."""
    kind = move["type"]
    own = letter_of(view, "letters", seat)
    if kind == "pick":  # a draft pick: no square, and as the action list names it
        return f"pick {ACTION_NAMES[move['action']]}"
    if kind == "swap":
        a, b = sorted(square_of(s, 4) for s in move["cells"])
        return (f"Swap: {square_words(a, 4)} and {square_words(b, 4)} traded places "
                f"(what was on {a} went to {b}, and what was on {b} to {a})")
    if kind == "shift":
        return _t2_shift(move)
    square = square_of(move["cell"], 4)
    if kind == "write":
        return f"wrote {own} on {square_words(square, 4)}"
    if kind == "double":
        return f"Double: an extra {own} on {square_words(square, 4)}"
    if kind == "void":
        return f"placed the Void on {square_words(square, 4)}"
    if kind == "dibs":
        return f"Dibs Space on {square_words(square, 4)}"
    if kind == "intersect":
        return f"Intersect Space on {square_words(square, 4)}"
    if kind == "wall":
        return f"Wall {_t2_border(square, move['side'])}"
    if kind == "topple":
        # Named by the square it falls onto and the side of that square it stood on.
        across = _t2_neighbour(square, move["side"])
        stood = (f"the border between squares {min(square, across)} and {max(square, across)}"
                 if across is not None else f"the {move['side']} edge of square {square}")
        return f"toppled their Wall from {stood} onto {square_words(square, 4)}, erasing what was on it"
    raise ValueError(kind)
