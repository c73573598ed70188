"""Tactic-Toe's plans: the grid, the rounds' constraints and how two plans resolve.

Pure functions shared by the rules and the AI. Squares are 1..9 from the upper left,
row by row (5 is the centre).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ...base import Seat
from ...errors import RuleError

SQUARES = tuple(range(1, 10))
CENTER = 5
ROUNDS = 3
PLAN_LENGTH = 3
MARKS = ("X", "O")  # seat 0 writes X, seat 1 writes O

#: The eight three-in-a-row lines, as squares 1..9.
LINES: tuple[tuple[int, int, int], ...] = (
    (1, 2, 3), (4, 5, 6), (7, 8, 9),
    (1, 4, 7), (2, 5, 8), (3, 6, 9),
    (1, 5, 9), (3, 5, 7),
)  # fmt: skip
LINE_SETS = frozenset(frozenset(line) for line in LINES)

# How one move of a pair resolved.
PLACED = "placed"  # the mark went in
INVALID = "invalid"  # the square was already taken (by anyone, at any earlier time)
BOUNCED = "bounced"  # both chose the same empty square in the same pair: neither goes in

Plan = tuple[int, int, int]
Board = tuple[int | None, ...]  # nine entries: 0 (X), 1 (O) or None, index = square - 1


def has_line(board: Sequence[int | None], seat: Seat) -> bool:
    """Whether ``seat`` has three in a row on ``board``."""
    return any(all(board[sq - 1] == seat for sq in line) for line in LINES)


def resolve_plans(board: Board, plans: tuple[Plan, Plan]) -> tuple[Board, tuple[tuple[str, str], ...]]:
    """Resolve two revealed plans in simultaneous consecutive pairs.

    Returns the new board and, per pair, how each seat's move went. The rule is
    symmetric in the seats: swapping the plans swaps the marks and the results.
    """
    cells = list(board)
    results: list[tuple[str, str]] = []
    for step in range(PLAN_LENGTH):
        first, second = plans[0][step], plans[1][step]
        if first == second:
            # Same square at the same moment: both bounce if it is free, else both are late.
            outcome = BOUNCED if cells[first - 1] is None else INVALID
            results.append((outcome, outcome))
            continue
        # Different squares: placed together, so neither can block the other.
        free = (cells[first - 1] is None, cells[second - 1] is None)
        if free[0]:
            cells[first - 1] = 0
        if free[1]:
            cells[second - 1] = 1
        results.append((PLACED if free[0] else INVALID, PLACED if free[1] else INVALID))
    return tuple(cells), tuple(results)


def plan_problem(round_number: int, plan: Plan, own_round1: Sequence[int]) -> RuleError | None:
    """Why ``plan`` breaks the round's constraint, or None if it is a legal plan.

    ``own_round1`` is the plan this player wrote in round 1 (needed in round 2).
    """
    if round_number == 1:
        if len(set(plan)) < PLAN_LENGTH:
            return RuleError("repeated-square", "In round 1 you can't write the same number twice.")
        if CENTER in plan:
            return RuleError("center-in-round-1", "In round 1 you can't choose 5, the center square.")
        if frozenset(plan) in LINE_SETS:
            return RuleError(
                "three-in-a-row-in-round-1",
                "In round 1 you can't choose a three-in-a-row win; round 1 is for setting yourself up.",
            )
    elif round_number == 2:
        reused = [sq for sq in plan if sq in own_round1]
        if reused:
            return RuleError(
                "chosen-in-round-1",
                f"In round 2 you can't choose a number you chose in round 1 ({reused[0]}).",
            )
        if len(set(plan)) < PLAN_LENGTH:
            return RuleError(
                "repeated-square",
                "In round 2 you can't write the same number twice; repeats are allowed only in round 3.",
            )
    return None


@lru_cache(maxsize=64)
def legal_plans(round_number: int, own_round1: tuple[int, ...]) -> tuple[Plan, ...]:
    """Every legal plan (ordered triple) of a round, in ascending order."""
    plans = ((a, b, c) for a in SQUARES for b in SQUARES for c in SQUARES)
    return tuple(p for p in plans if plan_problem(round_number, p, own_round1) is None)
