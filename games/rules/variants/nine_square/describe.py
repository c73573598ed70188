"""Nine-Square in words, and its preset."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...base import Preset

PRESETS: tuple[Preset, ...] = (
    Preset("nine-square-standard", "nine-square", "Nine-Square: standard rules", "Nine-Square rules"),
)

_WHO_IS_X = {
    "roll": "Both players roll the die; the higher roll is X and moves first (ties roll again).",
    "player-one": "House rule: Player One is X and moves first; no roll.",
    "player-two": "House rule: Player Two is X and moves first; no roll.",
}


def describe_rules(options: Mapping[str, Any]) -> list[str]:
    return [
        "Nine-Square: nine 3x3 boards; each turn the die says how many marks to make.",
        _WHO_IS_X[options["x_player"]],
    ]
