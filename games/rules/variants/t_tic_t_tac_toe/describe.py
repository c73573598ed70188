"""T-Tic-T-Tac-Toe's house rules in words, and its presets (the two official versions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import results
from ...base import Preset
from ..classic.describe import letters_and_first

PRESETS: tuple[Preset, ...] = (
    Preset("t-tic-t-tac-toe-1", "t-tic-t-tac-toe", "T-Tic-T-Tac-Toe: Version 1.0",
           "Official rules, Version 1.0 (the Berlin Wall)", {"version": "1.0"}),
    Preset("t-tic-t-tac-toe-2", "t-tic-t-tac-toe", "T-Tic-T-Tac-Toe: Version 2.0",
           "Official rules, Version 2.0", {"version": "2.0"}),
)  # fmt: skip


def describe_rules(options: Mapping[str, Any]) -> list[str]:
    lines = letters_and_first(options, "Official T-Tic-T-Tac-Toe on a 5x5 board.")
    if options["version"] == "1.0":
        lines.append(
            "Version 1.0: a Berlin Wall surrounds the centre square from the start; supers only goosh."
        )
    else:
        lines.append("Version 2.0: the board starts empty; supers goosh and place.")
    if options["bwahs"]:
        lines.append("A player may place the opponent's letter (a bwah); it stands once made.")
    else:
        lines.append("House rule: no bwahs; placing the opponent's letter is refused.")
    if options["confirm_moves"]:
        backs = options["take_backs"]
        lines.append(
            f"Each move waits until its player lifts the pen (confirms); each player may take back "
            f"{_count(backs, 'pending move')} per game."
        )
    return lines


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def describe_result(view: Mapping[str, Any], result: Mapping[str, Any], names: results.Names) -> str:
    """"Lucia (X) wins with three in a row across squares 7, 8 and 9." A draw (the player
    to move has no legal move) keeps the engine's words; the platform's ends, its own."""
    if not results.ended_by_rules(view, result):
        return results.default_sentence(view, result, names)
    line = view.get("winning_line")
    if result.get("result") == "win" and line:
        head = results.headline(result, results.seat_labels(view, names))
        return f"{head} with three in a row {_line_words(line)}."
    return results.default_sentence(view, result, names)


def _line_words(line: list[int]) -> str:
    """On the 5x5 board a line of three is part of a row, column or diagonal: named by its squares."""
    name = results.line_name(line, 5)
    return name if not name.startswith("the ") else f"on {name}"
