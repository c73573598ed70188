"""The state of one T-Tic-T-Tac-Toe game: the board, its blockages and what each player has left.

An immutable tuple (cheap to copy in the AI's searches) with named fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from ...base import Outcome, Seat, State
from . import geometry as geo

LETTERS = ("X", "O")
VERSIONS = ("1.0", "2.0")
#: Moves after a blockage's placement during which it cannot be destroyed: two full turns.
PROTECTION = 4
WIRE_CUTTERS = 1001  # 4.04(e)
RONALD_REAGANS = 420  # 4.05(g)
#: The specials each player has once per game.
SPECIALS = ("curtain", "wall", "super", "checkpoint")
CENTRE = 13

REDRAW_REASONS = {
    "super": "7.01(a) a super was used",
    "snip": "7.01(c) an Iron Curtain was snipped",
    "tear-down": "7.01(d) a Berlin Wall was torn down",
    "checkpoint-gone": "7.01(e) a Checkpoint Charlie disappeared",
}

# An action is the parsed, canonical form of a move:
#   ("place", square, letter) ("curtain", line) ("wall", name) ("super", corner)
#   ("snip", name) ("tear-down", name) ("checkpoint", name) ("confirm",) ("take-back",)
Action = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Blockage:
    """A standing Iron Curtain or Berlin Wall.

    ``name`` identifies it: the line ("h2") for a curtain, the two segments
    ("8|13+9|14") or "around 13" for a wall. ``owner`` is None for the board drawer's
    wall of Version 1.0. It cannot be destroyed up to and including move number
    ``protected_until`` (moves are numbered from 1 within the game).
    """

    kind: str
    name: str
    owner: Seat | None
    mask: int
    placed_at: int
    protected_until: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "owner": self.owner,
            "segments": [geo.SEGMENT_NAMES[s] for s in geo.segments_of(self.mask)],
            "placed_at": self.placed_at,
            "protected_until": self.protected_until,
        }


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A Checkpoint Charlie on blockage ``target``; it disappears once move ``ends_at`` is played."""

    owner: Seat
    target: str
    placed_at: int
    ends_at: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "owner": self.owner,
            "target": self.target,
            "placed_at": self.placed_at,
            "ends_at": self.ends_at,
        }


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the board's history. ``redraw`` names the rule 7.01 reason, if any.

    ``move`` is the move made (its canonical JSON; None for the board drawer's wall and
    a Checkpoint Charlie disappearing) and ``gooshed`` the squares a super emptied: the
    board draws what each move did from them. Games stored before they existed lack them.
    """

    ply: int
    seat: Seat | None
    kind: str
    text: str
    redraw: str | None = None
    move: dict[str, Any] | None = None
    gooshed: tuple[int, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "seat": self.seat,
            "kind": self.kind,
            "text": self.text,
            "redraw": self.redraw,
            "move": self.move,
            "gooshed": list(self.gooshed),
        }


_FIELDS = (
    "version", "symbols", "first", "confirm_moves", "bwahs", "take_back_limit", "seed", "cells", "ply",
    "to_move", "blockages", "checkpoints", "spent", "wire_cutters", "ronald_reagans", "take_backs",
    "pending", "history", "outcome", "winning_line",
)  # fmt: skip
_INDEX = {name: i for i, name in enumerate(_FIELDS)}


class TTTState(State, tuple[Any, ...]):
    """One 5x5 game: an immutable tuple of the fields below (a tuple: cheap to copy).

    ``cells[i]`` holds square i+1's letter or None; ``ply`` counts the moves made
    (confirmed) so far; ``spent`` lists the specials each seat has used; ``pending`` is
    the action awaiting confirmation (confirm_moves house rule).
    """

    __slots__ = ()

    version: str = property(itemgetter(0))  # type: ignore[assignment]
    symbols: tuple[str, str] = property(itemgetter(1))  # type: ignore[assignment]
    first: Seat = property(itemgetter(2))  # type: ignore[assignment]
    confirm_moves: bool = property(itemgetter(3))  # type: ignore[assignment]
    bwahs: bool = property(itemgetter(4))  # type: ignore[assignment]
    take_back_limit: int = property(itemgetter(5))  # type: ignore[assignment]
    seed: str = property(itemgetter(6))  # type: ignore[assignment]
    cells: tuple[str | None, ...] = property(itemgetter(7))  # type: ignore[assignment]
    ply: int = property(itemgetter(8))  # type: ignore[assignment]
    to_move: tuple[Seat, ...] = property(itemgetter(9))  # type: ignore[assignment]
    blockages: tuple[Blockage, ...] = property(itemgetter(10))  # type: ignore[assignment]
    checkpoints: tuple[Checkpoint, ...] = property(itemgetter(11))  # type: ignore[assignment]
    spent: tuple[tuple[str, ...], tuple[str, ...]] = property(itemgetter(12))  # type: ignore[assignment]
    wire_cutters: int = property(itemgetter(13))  # type: ignore[assignment]
    ronald_reagans: int = property(itemgetter(14))  # type: ignore[assignment]
    take_backs: tuple[int, int] = property(itemgetter(15))  # type: ignore[assignment]
    pending: Action | None = property(itemgetter(16))  # type: ignore[assignment]
    history: tuple[Event, ...] = property(itemgetter(17))  # type: ignore[assignment]
    outcome: Outcome | None = property(itemgetter(18))  # type: ignore[assignment]
    winning_line: tuple[int, int, int] | None = property(itemgetter(19))  # type: ignore[assignment]

    def __new__(cls, **fields: Any) -> TTTState:
        fields.setdefault("winning_line", None)
        return tuple.__new__(cls, tuple(fields[name] for name in _FIELDS))

    def _replace(self, **changes: Any) -> TTTState:
        values = list(self)
        for name, value in changes.items():
            values[_INDEX[name]] = value
        return tuple.__new__(TTTState, values)

    @property
    def blocked(self) -> int:
        """Every blocked unit segment, as a bitmask."""
        return blocked_mask(self.blockages)

    def __repr__(self) -> str:
        return f"TTTState(ply={self.ply}, to_move={self.to_move}, cells={self.cells})"


def blocked_mask(blockages: tuple[Blockage, ...]) -> int:
    """Every unit segment the ``blockages`` block, as a bitmask."""
    mask = 0
    for blockage in blockages:
        mask |= blockage.mask
    return mask
