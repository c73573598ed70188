"""Rock-paper-scissors players.

``strong`` throws uniformly at random: in a symmetric zero-sum game where each throw
beats one and loses to one, the only Nash equilibrium is the uniform mix, and no
opponent can expect to beat it (nor be beaten by it) whatever they do. ``casual``
throws like people often do: rock a little more than the others, and after a tie it
tends to switch away from the throw that tied.
"""

from __future__ import annotations

import random

from ...base import Move, Seat, State, Variant
from .throws import THROWS


def strong_move(variant: Variant, state: State, seat: Seat, rng: random.Random) -> Move:
    return {"throw": rng.choice(THROWS)}


def casual_move(variant: Variant, state: State, seat: Seat, rng: random.Random) -> Move:
    history = variant.view(state, seat)["history"]
    weights = {"rock": 0.4, "paper": 0.3, "scissors": 0.3}
    if history:
        weights[history[-1][seat]] *= 0.5  # after a tie, people rarely repeat the throw
    throws = list(weights)
    return {"throw": rng.choices(throws, weights=[weights[t] for t in throws])[0]}
