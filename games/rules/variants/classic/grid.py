"""The 3x3 grid as bitmasks: squares 1..9 from the upper left, square n at bit n-1.

Shared by the rules and the AI: precomputed tables, so a position is two small ints.
"""

from __future__ import annotations

CELLS = range(1, 10)
#: Three in a row, as 1-based squares: rows ("across"), columns ("down"), diagonals.
LINES: tuple[tuple[int, int, int], ...] = (
    (1, 2, 3), (4, 5, 6), (7, 8, 9),
    (1, 4, 7), (2, 5, 8), (3, 6, 9),
    (1, 5, 9), (3, 5, 7),
)  # fmt: skip
LINE_MASKS: tuple[int, ...] = tuple(sum(1 << (c - 1) for c in line) for line in LINES)
FULL = (1 << 9) - 1
#: HAS_LINE[mask] is True when the squares in ``mask`` hold three in a row (512 entries).
HAS_LINE: tuple[bool, ...] = tuple(any(mask & line == line for line in LINE_MASKS) for mask in range(512))
#: FREE_CELLS[occupied mask]: the unoccupied squares, in order.
FREE_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in CELLS if not occupied >> (c - 1) & 1) for occupied in range(512)
)
