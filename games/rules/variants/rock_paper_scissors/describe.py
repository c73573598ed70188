"""Rock-paper-scissors in words, and its one preset (it has no house rules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...base import Preset

PRESETS: tuple[Preset, ...] = (
    Preset("rock-paper-scissors-standard", "rock-paper-scissors", "Rock-paper-scissors",
           "Rock-paper-scissors (the FAQ's way to choose Player One)"),
)  # fmt: skip


def describe_rules(options: Mapping[str, Any]) -> list[str]:
    return ["Rock-paper-scissors: both throw at once; a tie is thrown again."]
