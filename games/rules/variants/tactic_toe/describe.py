"""Tactic-Toe in words, and its one preset (it has no house rules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...base import Preset

PRESETS: tuple[Preset, ...] = (
    Preset("tactic-toe-standard", "tactic-toe", "Tactic-Toe: standard rules", "Tactic-Toe rules"),
)


def describe_rules(options: Mapping[str, Any]) -> list[str]:
    return [
        "Tactic-Toe on a 3x3 grid: both players secretly plan three squares, then the plans are "
        "revealed and played pair by pair.",
        "Three rounds, each with its own limits on the plan (round 1 may not use the centre).",
    ]
