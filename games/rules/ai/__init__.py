"""AI players. They use only the engine's public contract.

Levels: ``random`` (any legal move), ``casual`` (plays like a person: mostly sound,
sometimes a mistake) and ``strong`` (the variant's best search). Each variant's
strong and casual players live in ``games.rules.ai.<module>`` as
``strong_move(variant, state, seat, rng)`` and optionally ``casual_move(...)``.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

from ..base import Move, Seat, State, Variant
from ..errors import RuleError

LEVELS = ("random", "casual", "strong")
#: How often the generic casual player picks the strong move rather than a random one.
CASUAL_STRENGTH = 0.7


def _module(variant: Variant) -> Any:
    return importlib.import_module(f"games.rules.ai.{variant.slug.replace('-', '_')}")


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
    if seat not in state.to_move:
        raise RuleError("not-your-turn", "It is not this seat's turn.")
    rng = rng or random.Random()
    if level == "random":
        return variant.random_move(state, seat, rng)
    module = _module(variant)
    if level == "casual":
        casual = getattr(module, "casual_move", None)
        if casual is not None:
            return casual(variant, state, seat, rng)
        if rng.random() < CASUAL_STRENGTH:
            return module.strong_move(variant, state, seat, rng)
        return variant.random_move(state, seat, rng)
    return module.strong_move(variant, state, seat, rng)
