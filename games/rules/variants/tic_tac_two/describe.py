"""Tic Tac Two's house rules in words, and its presets (the text's Meta and Void variations)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
