"""The immutable state of a game of Tic Tac Two."""

from __future__ import annotations

from dataclasses import dataclass

from ...base import Outcome, Seat, State
from .geometry import Border

#: What a square holds, as a short code (index = square - 1):
#: "" empty, "X", "O", "V" a Void, and an Intersect Space "I" holding
#: no letter, "IX", "IO" or "IXO" (both letters share it).
EMPTY = ""
VOID = "V"
INTERSECT = "I"
CELL_CODES = frozenset({"", "X", "O", "V", "I", "IX", "IO", "IXO"})


@dataclass(frozen=True, slots=True)
class TicTacTwoState(State):
    meta: bool
    void: bool
    seed: str
    #: The special actions each seat drafted, in the order picked.
    held: tuple[tuple[str, ...], tuple[str, ...]]
    #: The special actions each seat has used (placing a Wall counts; toppling does not).
    spent: tuple[tuple[str, ...], tuple[str, ...]]
    cells: tuple[str, ...]
    #: Pending Dibs Spaces: owner seat per square, None where there is none.
    #: A Dibs Space never moves (it is immune to Shift and Swap), so it is kept per square.
    dibs: tuple[Seat | None, ...]
    #: Standing Walls as (border, owner), sorted.
    walls: tuple[tuple[Border, Seat], ...]
    #: Turns each seat has completed in play (a turn ends when its letter is written).
    turns: tuple[int, int]
    #: Whether the seat to move has already used its special action this turn.
    acted: bool
    to_move: tuple[Seat, ...]
    result: Outcome | None
    #: The steps of the last turn, (seat, step) in order: the one under way, else the one
    #: just ended (a draft pick or a Void is a turn). What the board marks as just done.
    recent: tuple[tuple[Seat, tuple[object, ...]], ...] = ()
    #: The Walls that fell during ``recent`` (toppled, or pushed over by a Shift):
    #: (border, owner, the square it fell onto or None off the grid, the letters it erased).
    fallen: tuple[tuple[Border, Seat, int | None, str], ...] = ()
