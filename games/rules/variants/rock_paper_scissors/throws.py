"""The three throws and which beats which (the FAQ's footnote)."""

from __future__ import annotations

from ...base import Seat

THROWS = ("rock", "paper", "scissors")
#: BEATS[a] is the throw that ``a`` beats, with the verb the footnote uses.
BEATS: dict[str, tuple[str, str]] = {
    "paper": ("rock", "covers"),
    "rock": ("scissors", "pummels"),
    "scissors": ("paper", "cut"),
}

Throw = str
Pair = tuple[Throw | None, Throw | None]


def winner_of(a: Throw, b: Throw) -> Seat | None:
    """The seat whose throw wins, seat 0 having thrown ``a``; None on a tie."""
    if a == b:
        return None
    return 0 if BEATS[a][0] == b else 1
