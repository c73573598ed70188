"""FIDE (Dutch) System, C.04.3 as applied from 1 July 2025, with the basic rules
(C.04.1) and general handling rules (C.04.2) it rests on. Pure: no Django.

Input is a TRF-16 tournament (league.formats.trf): start numbers are pairing numbers,
``w`` moves first. ``pair(tournament, round_number)`` gives that round's pairs as
(white, black) start numbers, a pairing-allocated bye as (n, None).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import trf
from .explain import Reason


class DutchError(ValueError):
    """No pairing satisfies the absolute criteria (or the input cannot be paired)."""


@dataclass(frozen=True)
class Points:
    """The point system; FIDE's default is 1, 1/2, 0 and a win for the PAB."""

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    forfeit_loss: float = 0.0
    zero_bye: float = 0.0
    pab: float = 1.0


@dataclass(frozen=True)
class Pair:
    white: int  # start number of the player who moves first (X)
    black: int | None  # None: ``white`` has the pairing-allocated bye
    reasons: tuple[Reason, ...] = ()


def pair(tournament: trf.Tournament, round_number: int | None = None, *, points: Points = Points(),
         initial_colour: str | None = None) -> list[Pair]:
    """Round ``round_number``'s pairs (default: the first round not yet played), boards in order."""
    raise NotImplementedError
