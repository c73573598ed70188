"""House rules in words, and the standard presets of every rule set. Pure Python.

``describe_options(slug, options)`` turns a variant's validated options into sentences
a player reads before a game (the admin's preview, the rule set's page). It trusts its
input only as far as the engine does: options are validated first, so a bad set raises
the engine's RuleError rather than being described.

``PRESETS`` are the rule sets the texts themselves define: each variant's standard
rules, and the house rules the texts name (the classic FAQ's "Player Two uses X" and
"O goes first", Tic Tac Two's Meta and Void variations, T-Tic-T-Tac-Toe's two versions).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .registry import get_variant

SEAT_NAMES = ("Player One", "Player Two")


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of options for one variant, with the text it comes from."""

    slug: str
    variant: str
    name: str
    source: str
    options: Mapping[str, Any] = field(default_factory=dict)


PRESETS: tuple[Preset, ...] = (
    Preset("classic-standard", "classic", "Classic: standard rules", "Tic Tac Toe rules (X goes first)"),
    Preset("classic-player-two-x", "classic", "Classic: Player Two uses X", "FAQ v1.03 house rule",
           {"symbols": ["O", "X"]}),
    Preset("classic-o-first", "classic", "Classic: O goes first", "FAQ v1.03 house rule", {"first": "O"}),
    Preset("t-tic-t-tac-toe-1", "t-tic-t-tac-toe", "T-Tic-T-Tac-Toe: Version 1.0",
           "Official rules, Version 1.0 (the Berlin Wall)", {"version": "1.0"}),
    Preset("t-tic-t-tac-toe-2", "t-tic-t-tac-toe", "T-Tic-T-Tac-Toe: Version 2.0",
           "Official rules, Version 2.0", {"version": "2.0"}),
    Preset("tactic-toe-standard", "tactic-toe", "Tactic-Toe: standard rules", "Tactic-Toe rules"),
    Preset("tic-tac-two-standard", "tic-tac-two", "Tic Tac Two: standard rules", "Tic Tac Two rules"),
    Preset("tic-tac-two-meta", "tic-tac-two", "Tic Tac Two: Meta variation", "Tic Tac Two, variations",
           {"meta": True}),
    Preset("tic-tac-two-void", "tic-tac-two", "Tic Tac Two: Void variation", "Tic Tac Two, variations",
           {"void": True}),
    Preset("nine-square-standard", "nine-square", "Nine-Square: standard rules", "Nine-Square rules"),
    Preset("rock-paper-scissors-standard", "rock-paper-scissors", "Rock-paper-scissors",
           "Rock-paper-scissors (the FAQ's way to choose Player One)"),
)


def presets_for(variant: str) -> list[Preset]:
    return [preset for preset in PRESETS if preset.variant == variant]


def preset(slug: str) -> Preset | None:
    return next((p for p in PRESETS if p.slug == slug), None)


def describe_options(variant: str, options: Mapping[str, Any] | None) -> list[str]:
    """The rules of ``variant`` with ``options``, in sentences. Raises the engine's
    RuleError for an unknown variant or bad options."""
    rules = get_variant(variant)
    checked = rules.validate_options(options)
    return _DESCRIBERS[variant](checked)


def _letters_and_first(options: Mapping[str, Any], board: str) -> list[str]:
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


def _classic(options: Mapping[str, Any]) -> list[str]:
    return [
        *_letters_and_first(options, "Classic Tic Tac Toe on a 3x3 grid."),
        "Three in a row across, down or diagonally wins; a full grid without one is a draw.",
    ]


def _t_tic_t_tac_toe(options: Mapping[str, Any]) -> list[str]:
    lines = _letters_and_first(options, "Official T-Tic-T-Tac-Toe on a 5x5 board.")
    if options["version"] == "1.0":
        lines.append("Version 1.0: a Berlin Wall surrounds the centre square from the start; supers only goosh.")
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


def _tactic_toe(options: Mapping[str, Any]) -> list[str]:
    return [
        "Tactic-Toe on a 3x3 grid: both players secretly plan three squares, then the plans are "
        "revealed and played pair by pair.",
        "Three rounds, each with its own limits on the plan (round 1 may not use the centre).",
    ]


def _tic_tac_two(options: Mapping[str, Any]) -> list[str]:
    lines = [
        "Tic Tac Two on a 4x4 grid: four in a row wins.",
        "Before play each player drafts three special actions, O first; X writes the first letter.",
    ]
    if options["meta"]:
        lines.append("Meta variation: a player may pick actions the opponent chose, and the same action "
                     "more than once.")
    if options["void"]:
        lines.append("Void variation: before play each player places a Void, X first.")
    return lines


def _nine_square(options: Mapping[str, Any]) -> list[str]:
    who = {
        "roll": "Both players roll the die; the higher roll is X and moves first (ties roll again).",
        "player-one": "House rule: Player One is X and moves first; no roll.",
        "player-two": "House rule: Player Two is X and moves first; no roll.",
    }[options["x_player"]]
    return ["Nine-Square: nine 3x3 boards; each turn the die says how many marks to make.", who]


def _rock_paper_scissors(options: Mapping[str, Any]) -> list[str]:
    return ["Rock-paper-scissors: both throw at once; a tie is thrown again."]


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


_DESCRIBERS: dict[str, Callable[[Mapping[str, Any]], list[str]]] = {
    "classic": _classic,
    "t-tic-t-tac-toe": _t_tic_t_tac_toe,
    "tactic-toe": _tactic_toe,
    "tic-tac-two": _tic_tac_two,
    "nine-square": _nine_square,
    "rock-paper-scissors": _rock_paper_scissors,
}
