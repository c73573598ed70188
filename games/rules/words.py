"""Moves in words, for the move list (``Variant.describe_move_line``): which square by its
number and by its place on the board, which a player can see on a board without numbers
("the centre", "row 3, column 4"). Pure Python, shared by the variants' ``describe``
modules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

#: The nine squares of a 3x3 board by their place, as the lessons and the rule texts say it.
PLACES_3 = ("top left", "top middle", "top right", "middle left", "centre", "middle right",
            "bottom left", "bottom middle", "bottom right")


def place(square: int, size: int) -> str:
    """Where square ``square`` (1 from the top left, row by row) is on a ``size`` board."""
    if size == 3:
        return PLACES_3[square - 1]
    row, column = divmod(square - 1, size)
    return f"row {row + 1}, column {column + 1}"


def square_words(square: int, size: int) -> str:
    """"square 5 (centre)", "square 14 (row 3, column 4)"."""
    return f"square {square} ({place(square, size)})"


def and_list(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def square_of(value: Any, size: int) -> int:
    """A square number of a ``size`` board, or ValueError (a move is data, not trusted)."""
    if type(value) is not int or not 1 <= value <= size * size:
        raise ValueError(value)
    return value


def letter_of(view: Mapping[str, Any], key: str, seat: int) -> str:
    letters = view.get(key) or ("X", "O")
    return str(letters[seat])

