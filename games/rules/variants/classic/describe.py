"""Classic Tic Tac Toe's house rules in words, and its presets (the FAQ's house rules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import results
from ...base import SEAT_NAMES, Preset
from ...words import square_of, square_words

PRESETS: tuple[Preset, ...] = (
    Preset("classic-standard", "classic", "Classic: standard rules", "Tic Tac Toe rules (X goes first)"),
    Preset("classic-player-two-x", "classic", "Classic: Player Two uses X", "FAQ v1.03 house rule",
           {"symbols": ["O", "X"]}),
    Preset("classic-o-first", "classic", "Classic: O goes first", "FAQ v1.03 house rule", {"first": "O"}),
)  # fmt: skip


def letters_and_first(options: Mapping[str, Any], board: str) -> list[str]:
    """``board``, then who places which letter and who moves first (T-Tic-T-Tac-Toe keeps
    the classic game's letters, so it says this alike)."""
    one, two = options["symbols"]
    first = options["first"]
    first_seat = SEAT_NAMES[[one, two].index(first)]
    lines = [board]
    if [one, two] == ["X", "O"]:
        lines.append("Player One places X and Player Two places O.")
    else:
        lines.append(f"House rule: Player One places {one} and Player Two places {two}.")
    if first == "X":
        lines.append(f"X goes first, so {first_seat} moves first.")
    else:
        lines.append(f"House rule: O goes first, so {first_seat} moves first.")
    return lines


def describe_rules(options: Mapping[str, Any]) -> list[str]:
    return [
        *letters_and_first(options, "Classic Tic Tac Toe on a 3x3 grid."),
        "Three in a row across, down or diagonally wins; a full grid without one is a draw.",
    ]


def describe_result(view: Mapping[str, Any], result: Mapping[str, Any], names: results.Names) -> str:
    """"Lucia (X) wins with three in a row on the top row." / "Draw: the grid is full and
    nobody has three in a row." A game the platform ended says why (results.py)."""
    if not results.ended_by_rules(view, result):
        return results.default_sentence(view, result, names)
    head = results.headline(result, results.seat_labels(view, names))
    line = view.get("winning_line")
    if result.get("result") == "win" and line:
        return f"{head} with three in a row on {results.line_name(line, 3)}."
    return f"{head}: the grid is full and nobody has three in a row."


# -- the move list's words (Variant.describe_move_line) --------------------

def move_line(move: Mapping[str, Any], seat: int, view: Mapping[str, Any], ply: int) -> str:
    """"Player One places an X in a space": placed X in square 5 (centre)."""
    return f"placed {'XO'[seat]} in {square_words(square_of(move['cell'], 3), 3)}"
