"""The 4x4 grid: squares, the borders between them, and the lines of four.

Squares are numbered 1..16 from the upper left, row by row, in moves and views;
inside the engine a square is its index 0..15 (``row * 4 + col``).

A *border* is where a Wall can stand. Vertical borders are ``("v", row, k)``: the
border in ``row`` between column ``k - 1`` and column ``k`` (``k`` = 0 is the left
edge of the grid, 4 the right edge). Horizontal borders are ``("h", k, col)``: the
border in ``col`` between row ``k - 1`` and row ``k`` (0 the top edge, 4 the bottom).
Players name a border by a square and a side: ``(6, "right")`` is ``(7, "left")``.
"""

from __future__ import annotations

SIZE = 4
CELL_COUNT = SIZE * SIZE
CELLS = tuple(range(CELL_COUNT))

Border = tuple[str, int, int]

SIDES = ("top", "bottom", "left", "right")


def row_col(index: int) -> tuple[int, int]:
    return divmod(index, SIZE)


def index_of(row: int, col: int) -> int:
    return row * SIZE + col


def border_of(index: int, side: str) -> Border:
    """The border on ``side`` of the square with index ``index``."""
    row, col = row_col(index)
    if side == "left":
        return ("v", row, col)
    if side == "right":
        return ("v", row, col + 1)
    if side == "top":
        return ("h", row, col)
    if side == "bottom":
        return ("h", row + 1, col)
    raise ValueError(side)


def border_cells(border: Border) -> tuple[int | None, int | None]:
    """The squares on either side: (left, right) of a vertical border, (above, below)
    of a horizontal one; None where the side is outside the grid."""
    kind, a, b = border
    if kind == "v":
        row, k = a, b
        return (index_of(row, k - 1) if k > 0 else None, index_of(row, k) if k < SIZE else None)
    k, col = a, b
    return (index_of(k - 1, col) if k > 0 else None, index_of(k, col) if k < SIZE else None)


def is_edge(border: Border) -> bool:
    """Whether the border is on the very edge of the grid (such a Wall blocks nothing)."""
    kind, a, b = border
    k = b if kind == "v" else a
    return k in (0, SIZE)


def side_towards(border: Border, index: int) -> str:
    """The side of square ``index`` on which ``border`` lies (``index`` touches it)."""
    for side in SIDES:
        if border_of(index, side) == border:
            return side
    raise ValueError((border, index))


def canonical_name(border: Border) -> tuple[int, str]:
    """The one (square index, side) the engine uses to name a border: the square
    above or left of it, except for the top and left edges of the grid."""
    before, after = border_cells(border)
    kind = border[0]
    if before is not None:
        return before, ("right" if kind == "v" else "bottom")
    assert after is not None
    return after, ("left" if kind == "v" else "top")


#: Every border of the grid (40: 24 inside, 16 on the edge), in the order of their names.
ALL_BORDERS: tuple[Border, ...] = tuple(
    sorted(
        {border_of(i, side) for i in CELLS for side in SIDES},
        key=lambda b: (canonical_name(b)[0], SIDES.index(canonical_name(b)[1])),
    )
)

#: Squares touching each square, diagonals included (for Swap).
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        index_of(r, c)
        for r in range(row_col(i)[0] - 1, row_col(i)[0] + 2)
        for c in range(row_col(i)[1] - 1, row_col(i)[1] + 2)
        if 0 <= r < SIZE and 0 <= c < SIZE and (r, c) != row_col(i)
    )
    for i in CELLS
)

#: Each unordered pair of touching squares once, lower index first.
ADJACENT_PAIRS: tuple[tuple[int, int], ...] = tuple((a, b) for a in CELLS for b in NEIGHBOURS[a] if a < b)


def line_cells(kind: str, number: int) -> tuple[int, ...]:
    """The squares of row or column ``number`` (0..3), in order left to right / top to bottom."""
    if kind == "row":
        return tuple(index_of(number, c) for c in range(SIZE))
    return tuple(index_of(r, number) for r in range(SIZE))


def line_borders(kind: str, number: int) -> tuple[Border, ...]:
    """The borders a Shift of that row or column pushes across (perpendicular to it),
    edges included, in order: the Walls that topple when the line is shifted."""
    if kind == "row":
        return tuple(("v", number, k) for k in range(SIZE + 1))
    return tuple(("h", k, number) for k in range(SIZE + 1))


#: The ten lines of four: (squares, the inner borders a Wall blocks it at).
#: A Wall blocks rows and columns only; the two diagonals cross no border.
LINES: tuple[tuple[tuple[int, ...], tuple[Border, ...]], ...] = (
    *((line_cells("row", r), tuple(("v", r, k) for k in range(1, SIZE))) for r in range(SIZE)),
    *((line_cells("column", c), tuple(("h", k, c) for k in range(1, SIZE))) for c in range(SIZE)),
    (tuple(index_of(i, i) for i in range(SIZE)), ()),
    (tuple(index_of(i, SIZE - 1 - i) for i in range(SIZE)), ()),
)

#: LINES_THROUGH[i]: indexes into LINES of the lines that contain square i.
LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n, (cells, _) in enumerate(LINES) if i in cells) for i in CELLS
)
