"""T-Tic-T-Tac-Toe's house rules in words, and its presets (the two official versions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
