"""Tic Tac Toe players.

``strong`` plays perfectly: the game is solved once (memoised negamax over the 5,478
reachable positions, a few milliseconds) and the AI picks, among the moves with the
best value, the one that gives a fallible opponent the most chances to go wrong
(the best chance to win against a uniformly random opponent), and among those one at
random so its games vary. Values prefer faster wins and slower losses, so it never
dawdles when it can win and makes the opponent work for a win.

``casual`` plays like a person who knows the basics: it usually takes a win and
usually blocks the opponent's three in a row, but now and then misses one; otherwise
it likes the centre, then corners, then edges.

Both read the position through the public contract (``variant.view``).
"""

from __future__ import annotations

import random
from functools import cache

from ...base import Move, Seat, State, Variant
from .grid import FREE_CELLS, FULL, HAS_LINE

#: How often the casual player sees its own winning move / the opponent's threat.
CASUAL_TAKES_WIN = 0.9
CASUAL_BLOCKS = 0.75
#: The casual player's liking for each square when nothing is urgent: centre, corners, edges.
CASUAL_TASTE = {5: 4, 1: 2, 3: 2, 7: 2, 9: 2, 2: 1, 4: 1, 6: 1, 8: 1}


def masks(variant: Variant, state: State, seat: Seat) -> tuple[int, int]:
    """(squares of ``seat``, squares of the other seat) as bitmasks, square n at bit n-1."""
    view = variant.view(state, seat)
    mine_letter = view["symbols"][seat]
    mine = theirs = 0
    for index, letter in enumerate(view["board"]):
        if letter is not None:
            if letter == mine_letter:
                mine |= 1 << index
            else:
                theirs |= 1 << index
    return mine, theirs


@cache
def value(mine: int, theirs: int) -> int:
    """The value of a running position for the player to move (``mine``), under perfect play.

    0 is a draw; a win is positive, a loss negative, and the magnitude is one more
    than the number of empty squares left when the winning line is made, so a sooner
    win is worth more and a sooner loss costs more.
    """
    return max(move_values(mine, theirs).values())


def move_values(mine: int, theirs: int) -> dict[int, int]:
    """The value of each legal square for the player to move."""
    occupied = mine | theirs
    empty_after = len(FREE_CELLS[occupied]) - 1
    values = {}
    for cell in FREE_CELLS[occupied]:
        after = mine | 1 << (cell - 1)
        if HAS_LINE[after]:
            values[cell] = empty_after + 1
        elif after | theirs == FULL:
            values[cell] = 0
        else:
            values[cell] = -value(theirs, after)
    return values


def best_cells(mine: int, theirs: int) -> list[int]:
    """The perfect moves, narrowed to those that best exploit an opponent's mistakes."""
    perfect = _perfect(mine, theirs)
    if len(perfect) == 1:
        return perfect
    chances = {cell: _after_my_move(mine | 1 << (cell - 1), theirs) for cell in perfect}
    top = max(chances.values())
    return [cell for cell in perfect if chances[cell] >= top - 1e-12]


@cache
def _expected(mine: int, theirs: int) -> float:
    """My chance to win, playing ``best_cells`` against a uniformly random opponent."""
    return max(_after_my_move(mine | 1 << (cell - 1), theirs) for cell in _perfect(mine, theirs))


def _perfect(mine: int, theirs: int) -> list[int]:
    """The moves of best value: never worse than perfect play."""
    values = move_values(mine, theirs)
    best = max(values.values())
    return [cell for cell, v in values.items() if v == best]


def _after_my_move(mine: int, theirs: int) -> float:
    if HAS_LINE[mine]:
        return 1.0
    if mine | theirs == FULL:
        return 0.0
    total = 0.0
    free = FREE_CELLS[mine | theirs]
    for cell in free:  # the opponent picks any free square alike
        after = theirs | 1 << (cell - 1)
        if HAS_LINE[after]:
            continue  # a loss is no win
        total += 0.0 if after | mine == FULL else _expected(mine, after)
    return total / len(free)


def strong_move(variant: Variant, state: State, seat: Seat, rng: random.Random) -> Move:
    mine, theirs = masks(variant, state, seat)
    return {"cell": rng.choice(best_cells(mine, theirs))}


def _completing(mine: int, free: tuple[int, ...]) -> list[int]:
    """The free squares that would give ``mine`` three in a row."""
    return [cell for cell in free if HAS_LINE[mine | 1 << (cell - 1)]]


def casual_move(variant: Variant, state: State, seat: Seat, rng: random.Random) -> Move:
    mine, theirs = masks(variant, state, seat)
    free = FREE_CELLS[mine | theirs]
    wins = _completing(mine, free)
    if wins and rng.random() < CASUAL_TAKES_WIN:
        return {"cell": rng.choice(wins)}
    threats = _completing(theirs, free)
    if threats and rng.random() < CASUAL_BLOCKS:
        return {"cell": rng.choice(threats)}
    return {"cell": rng.choices(free, weights=[CASUAL_TASTE[c] for c in free])[0]}
