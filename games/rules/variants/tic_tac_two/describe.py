"""Tic Tac Two's house rules in words, and its presets (the text's Meta and Void variations)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import results
from ...base import Preset

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
