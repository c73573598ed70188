"""AI players. They use only the engine's public contract.

Levels: ``random`` (any legal move), ``casual`` (plays like a person: mostly sound,
sometimes a mistake) and ``strong`` (the variant's best search). The casual and strong
players are the variant's own (``Variant.casual_move`` and ``Variant.strong_move``,
written in the ``ai`` module of its package).
"""

from __future__ import annotations

import random

from .base import Move, Seat, State, Variant, require_seat
from .errors import RuleError

LEVELS = ("random", "casual", "strong")


def choose_move(
    variant: Variant,
    state: State,
    seat: Seat,
    level: str = "strong",
    rng: random.Random | None = None,
) -> Move:
    """The move an AI of ``level`` makes for ``seat`` in ``state``."""
    if level not in LEVELS:
        raise RuleError("unknown-level", f"AI levels are {', '.join(LEVELS)}; {level!r} is not one.")
    if require_seat(seat) not in state.to_move:
        raise RuleError("not-your-turn", "It is not this seat's turn.")
    rng = rng or random.Random()
    if level == "random":
        return variant.random_move(state, seat, rng)
    if level == "casual":
        return variant.casual_move(state, seat, rng)
    return variant.strong_move(state, seat, rng)
