"""The 5x5 board of T-Tic-T-Tac-Toe: squares, unit segments, inner lines, three in a row.

Squares are numbered 1..25 from the upper left, row by row. Rows and columns are
counted from 0 inside this module. A *unit segment* is the side shared by two
orthogonally adjacent squares; there are 40 of them, all on the eight *inner lines*:

- ``h1``..``h4``: the horizontal lines below rows 1..4 (h1 lies between rows 1 and 2);
- ``v1``..``v4``: the vertical lines right of columns 1..4.

A segment is named by the two squares it separates, smaller first: ``"8|13"``. Sides
on the outer border separate nothing, so they are never stored (a wall around an edge
square is drawn on the border too, but only its inner sides can block anything).

Every set of blocked segments is a bitmask (bit ``i`` for segment ``i``).

Blocking (see docs/rules/t-tic-t-tac-toe.md for the diagrams):

- an orthogonal step between two squares is blocked when their shared segment is;
- a diagonal step passes through the corner ``P`` shared by four squares. Around ``P``
  lie four half-segments N, E, S, W. The step NW-SE could be "bent" round ``P`` through
  NE (crossing N and E) or through SW (crossing W and S); it is blocked exactly when
  both bends are cut, i.e. when the blockages separate the two squares right at ``P``.
  So a line or wall running *through* ``P`` blocks both diagonals, a wall *ending* at
  ``P`` blocks neither (4.05(c): one may go around its outer end), and the corner of a
  wall around a square blocks the diagonal into that square but not the one past it.
"""

from __future__ import annotations

from functools import lru_cache

SIZE = 5
SQUARES = range(1, SIZE * SIZE + 1)
LINE_NAMES = ("h1", "h2", "h3", "h4", "v1", "v2", "v3", "v4")


def square_of(row: int, col: int) -> int:
    return row * SIZE + col + 1


def row_col(square: int) -> tuple[int, int]:
    return divmod(square - 1, SIZE)


def _vertical_segment(row: int, boundary: int) -> int:
    """The segment between (row, boundary) and (row, boundary + 1): on line v{boundary+1}."""
    return row * 4 + boundary


def _horizontal_segment(boundary: int, col: int) -> int:
    """The segment between (boundary, col) and (boundary + 1, col): on line h{boundary+1}."""
    return 20 + boundary * SIZE + col


SEGMENT_COUNT = 40
#: SEGMENT_SQUARES[i]: the two squares segment i separates (smaller first).
SEGMENT_SQUARES: tuple[tuple[int, int], ...] = tuple(
    [(square_of(r, b), square_of(r, b + 1)) for r in range(SIZE) for b in range(4)]
    + [(square_of(b, c), square_of(b + 1, c)) for b in range(4) for c in range(SIZE)]
)
SEGMENT_NAMES: tuple[str, ...] = tuple(f"{a}|{b}" for a, b in SEGMENT_SQUARES)
SEGMENT_BY_NAME: dict[str, int] = {name: i for i, name in enumerate(SEGMENT_NAMES)}
#: SEGMENT_LINE[i]: the inner line segment i lies on.
SEGMENT_LINE: tuple[str, ...] = tuple(
    [f"v{b + 1}" for r in range(SIZE) for b in range(4)]
    + [f"h{b + 1}" for b in range(4) for c in range(SIZE)]
)
#: Segments in order along each inner line (left to right, top to bottom).
LINE_SEGMENTS: dict[str, tuple[int, ...]] = {
    **{f"h{b + 1}": tuple(_horizontal_segment(b, c) for c in range(SIZE)) for b in range(4)},
    **{f"v{b + 1}": tuple(_vertical_segment(r, b) for r in range(SIZE)) for b in range(4)},
}
LINE_MASK: dict[str, int] = {name: sum(1 << s for s in segs) for name, segs in LINE_SEGMENTS.items()}


def mask_of(segments: tuple[int, ...] | list[int]) -> int:
    mask = 0
    for segment in segments:
        mask |= 1 << segment
    return mask


def segments_of(mask: int) -> list[int]:
    return [i for i in range(SEGMENT_COUNT) if mask >> i & 1]


def segment_between(a: int, b: int) -> int | None:
    """The segment shared by squares a and b, or None when they are not orthogonal neighbours."""
    ra, ca = row_col(a)
    rb, cb = row_col(b)
    if ra == rb and abs(ca - cb) == 1:
        return _vertical_segment(ra, min(ca, cb))
    if ca == cb and abs(ra - rb) == 1:
        return _horizontal_segment(min(ra, rb), ca)
    return None


#: Straight Berlin Walls (4.05(a)): two adjacent unit segments on one inner line.
STRAIGHT_WALLS: tuple[tuple[int, int], ...] = tuple(
    (segs[i], segs[i + 1]) for name in LINE_NAMES for segs in [LINE_SEGMENTS[name]] for i in range(SIZE - 1)
)
STRAIGHT_WALL_SET = frozenset(STRAIGHT_WALLS)


def around_mask(square: int) -> int:
    """The inner sides of ``square`` (a Berlin Wall around it, 4.05(b))."""
    r, c = row_col(square)
    segments = []
    if r > 0:
        segments.append(_horizontal_segment(r - 1, c))
    if r < SIZE - 1:
        segments.append(_horizontal_segment(r, c))
    if c > 0:
        segments.append(_vertical_segment(r, c - 1))
    if c < SIZE - 1:
        segments.append(_vertical_segment(r, c))
    return mask_of(segments)


AROUND_MASK: dict[int, int] = {s: around_mask(s) for s in SQUARES}


def _diagonal_condition(a: int, b: int) -> tuple[int, int]:
    """(m1, m2): the diagonal step a-b is blocked when blocked & m1 and blocked & m2."""
    (ra, ca), (rb, cb) = row_col(a), row_col(b)
    top, left = min(ra, rb), min(ca, cb)
    # The corner P shared by the four squares (top..top+1) x (left..left+1).
    north = _vertical_segment(top, left)  # between NW and NE
    south = _vertical_segment(top + 1, left)  # between SW and SE
    west = _horizontal_segment(top, left)  # between NW and SW
    east = _horizontal_segment(top, left + 1)  # between NE and SE
    if (ra < rb) == (ca < cb):  # NW-SE: bends through NE (N, E) or through SW (W, S)
        return (1 << north | 1 << east, 1 << west | 1 << south)
    # NE-SW: bends through NW (N, W) or through SE (E, S)
    return (1 << north | 1 << west, 1 << east | 1 << south)


def step_condition(a: int, b: int) -> tuple[int, int]:
    segment = segment_between(a, b)
    if segment is not None:
        return (1 << segment, 1 << segment)
    return _diagonal_condition(a, b)


def step_blocked(a: int, b: int, blocked: int) -> bool:
    m1, m2 = step_condition(a, b)
    return bool(blocked & m1) and bool(blocked & m2)


def _triples() -> tuple[tuple[tuple[int, int, int], tuple[tuple[int, int], ...]], ...]:
    found: list[tuple[tuple[int, int, int], tuple[tuple[int, int], ...]]] = []
    for r in range(SIZE):
        for c in range(SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(3)]
                if all(0 <= rr < SIZE and 0 <= cc < SIZE for rr, cc in cells):
                    a, b, e = (square_of(rr, cc) for rr, cc in cells)
                    squares = (a, b, e)
                    conditions = (
                        step_condition(squares[0], squares[1]),
                        step_condition(squares[1], squares[2]),
                    )
                    found.append((squares, conditions))
    return tuple(found)


#: Every three in a row on the board (48): the squares and the two steps' conditions.
TRIPLES = _triples()


def triple_open(conditions: tuple[tuple[int, int], ...], blocked: int) -> bool:
    # Plain loops here and in has_line: they run in every search node, faster than all()/any().
    for m1, m2 in conditions:  # noqa: SIM110
        if blocked & m1 and blocked & m2:
            return False
    return True


#: TRIPLE_MASKS[i]: the squares of TRIPLES[i] as a bitmask (bit n-1 for square n).
TRIPLE_MASKS: tuple[int, ...] = tuple(sum(1 << (s - 1) for s in squares) for squares, _ in TRIPLES)


@lru_cache(maxsize=4096)
def open_triples(blocked: int) -> tuple[tuple[int, tuple[int, int, int]], ...]:
    """(mask, squares) of every three in a row no blockage in ``blocked`` obstructs."""
    return tuple(
        (mask, squares)
        for mask, (squares, conditions) in zip(TRIPLE_MASKS, TRIPLES, strict=True)
        if triple_open(conditions, blocked)
    )


def bits_of(cells: tuple[str | None, ...], letter: str) -> int:
    """The squares holding ``letter`` as a bitmask."""
    bits = 0
    for index, value in enumerate(cells):
        if value == letter:
            bits |= 1 << index
    return bits


def lines_of(cells: tuple[str | None, ...], blocked: int, letter: str) -> list[tuple[int, int, int]]:
    """Every unobstructed three in a row of ``letter`` (cells[0] is square 1)."""
    bits = bits_of(cells, letter)
    return [squares for mask, squares in open_triples(blocked) if bits & mask == mask]


def has_line(cells: tuple[str | None, ...], blocked: int, letter: str) -> bool:
    bits = bits_of(cells, letter)
    for mask, _ in open_triples(blocked):  # noqa: SIM110
        if bits & mask == mask:
            return True
    return False


def threats(
    cells: tuple[str | None, ...], blocked: int, letter: str
) -> list[tuple[int, tuple[int, int, int]]]:
    """(empty square, its line) for every open line holding two ``letter`` and one empty square."""
    mine = 0
    occupied = 0
    for index, value in enumerate(cells):
        if value is not None:
            occupied |= 1 << index
            if value == letter:
                mine |= 1 << index
    found = []
    for mask, squares in open_triples(blocked):
        own = mine & mask
        if own != mask and occupied & mask == own and (own & (own - 1)) and own.bit_count() == 2:
            empty = (mask & ~own).bit_length()
            found.append((empty, squares))
    return found


def super_range(corner: int) -> tuple[int, int, int, int]:
    """The 2x2 range of a super whose upper-left square is ``corner``."""
    return (corner, corner + 1, corner + SIZE, corner + SIZE + 1)


#: Upper-left squares of every 2x2 range on the board (16).
SUPER_CORNERS: tuple[int, ...] = tuple(square_of(r, c) for r in range(SIZE - 1) for c in range(SIZE - 1))

SUPER_RANGE_MASKS: tuple[tuple[int, int], ...] = tuple(
    (corner, sum(1 << (s - 1) for s in super_range(corner))) for corner in SUPER_CORNERS
)


def super_completions(cells: tuple[str | None, ...], blocked: int, letter: str) -> set[int]:
    """Upper-left squares of the supers that would fill a three in a row of ``letter``.

    (Version 2.0 supers place ``letter`` on the empty squares of their range.) A 2x2
    range never holds three in a row, so a completed line already holds ``letter``.
    """
    mine = 0
    occupied = 0
    for index, value in enumerate(cells):
        if value is not None:
            occupied |= 1 << index
            if value == letter:
                mine |= 1 << index
    corners: set[int] = set()
    for mask, _ in open_triples(blocked):
        own = mine & mask
        if not own or occupied & mask != own:
            continue  # no symbol of ``letter`` there, or an opposing one
        missing = mask & ~own
        for corner, area in SUPER_RANGE_MASKS:
            if not missing & ~area:
                corners.add(corner)
    return corners
