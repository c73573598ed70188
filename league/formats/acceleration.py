"""Accelerated pairings (FIDE C.04.5): virtual points added to some players' scores in
the first rounds, so that the stronger half meets itself early. They change only the
pairing score (the score brackets, floats, the bye's score and the topscorers); standings,
board order and published scores never see them. Pure: no Django.

Virtual points are given per player and per round (round 1 first), as TRF's ``XXA``
lines carry them; ``baku`` computes them by the Baku Acceleration Method (C.04.5.1).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

VirtualPoints = dict[int, tuple[float, ...]]  # start number -> points for round 1, 2, ...


def baku(order: Sequence[int], total_rounds: int, *, round_one: Collection[int] | None = None,
         win: float = 1.0, draw: float = 0.5) -> VirtualPoints:
    """C.04.5.1. ``order``: the start numbers in pairing order; ``round_one``: those paired
    in round 1 (default: all), whose first half rounded up to an even number, 2 * ceil(N / 4),
    is group A. A later entry ranked above the last of them joins group A (the last GA
    player stays the same). The accelerated rounds are the first half of the event rounded
    up; group A has ``win`` virtual points in the first half of those (rounded up), ``draw``
    in the rest. Group B has none: it is left out of the result."""
    first = [n for n in order if round_one is None or n in round_one]
    if not first or total_rounds < 1:
        return {}
    last_ga = first[min(len(first), 2 * math.ceil(len(first) / 4)) - 1]
    accelerated = math.ceil(total_rounds / 2)
    full = math.ceil(accelerated / 2)
    points = tuple(win if r < full else draw for r in range(accelerated))
    group_a = order[:list(order).index(last_ga) + 1]
    return {number: points for number in group_a}


def of_round(virtual: VirtualPoints, number: int, round_number: int) -> float:
    """The virtual points of start number ``number`` when round ``round_number`` is paired."""
    points = virtual.get(number, ())
    return points[round_number - 1] if 0 < round_number <= len(points) else 0.0
