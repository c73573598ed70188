"""Nine-Square players: greedy planning over a line-by-line evaluation, plus expectimax.

The AI reads only the public view (board, die, letters), so it stays within the engine's
contract. A turn places ``k`` marks at once (k = the die), far too many moves to list, so
the players *build* a move:

1. **Evaluation** of a grid at the end of a turn, from the side of the player who just
   moved (the opponent rolls next): each small line is worth +1 if the mover holds it,
   -1 if the opponent does, and a fraction while it is still open: a line holding only
   the opponent's marks is a threat they will likely complete on their coming turn
   (heavy minus), one holding only the mover's marks is worth less (the opponent can
   block it first). Board-line bonuses count 3 when won, and a share of 3 while the
   three boards can all still get a line for that player.
2. **Greedy planning**: mark by mark, take the action that gains the most evaluation per
   mark; an action is one square, or all the empty squares of a line the player can
   finish with the marks left this turn (so it sees "three marks make a point").
3. **Local search** (strong): swap a placed mark for another square while it helps.
4. **Expectimax over the die** (strong): a few candidate moves (the greedy plan, and
   plans opening with the next-best single squares) are compared by the average, over
   the opponent's six possible rolls, of the grid after the opponent's greedy reply.

The weights below were tuned by paired self-play (same dice, seats swapped). In those
matches the weights mattered far more than the search: with steps 3-4 the player won
50-53% of 200 games against the plain greedy planner, within the noise of the dice.

Levels: ``casual_move`` is the greedy planner with some careless marks; ``strong_move``
runs 1-4 within a time budget (``time_limit``) and answers well within 1 s.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ...base import Move, Seat, State, Variant

#: Lines of a 3x3 grid (0-based positions), rows, columns, diagonals.
_GRID_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
#: The 72 small lines as grid indexes (board * 9 + square, 0-based).
_LINES = tuple((b * 9 + i, b * 9 + j, b * 9 + k) for b in range(9) for (i, j, k) in _GRID_LINES)
#: Lines through each grid index.
_LINES_OF = tuple(tuple(n for n, line in enumerate(_LINES) if i in line) for i in range(81))
#: Board-lines through each board (indexes into _GRID_LINES).
_BOARD_LINES_OF = tuple(tuple(n for n, line in enumerate(_GRID_LINES) if b in line) for b in range(9))

ME, OPP = 1, 2

# Weights of an open line, seen by the player who just moved (the opponent rolls next).
# Index: how many marks the line holds (of only one player).
_MINE_OPEN = (0.0, 0.25, 0.32)  # mine: the opponent may block it before I finish it
_THEIRS_OPEN = (0.0, 0.25, 0.82)  # theirs: they move next and will probably finish it
#: A board's chance-like worth toward a board-line bonus, by the most marks the player
#: holds in one still-open line there (no open line left: 0; a line won already: 1).
_BOARD_HOPE = (0.10, 0.25, 0.5)
#: How much of a board-line bonus's hope counts before it is won.
_BONUS_HOPE_WEIGHT = 0.5
_BONUS = 3.0

_TABLE: list[list[float]] = [[0.0] * 4 for _ in range(4)]
for _a in range(4):
    for _b in range(4):
        if _a == 3:
            _TABLE[_a][_b] = 1.0
        elif _b == 3:
            _TABLE[_a][_b] = -1.0
        elif _b == 0:
            _TABLE[_a][_b] = _MINE_OPEN[_a]
        elif _a == 0:
            _TABLE[_a][_b] = -_THEIRS_OPEN[_b]


class _Position:
    """A mutable grid for search, with line counts and board summaries kept up to date.

    Sides are 1 and 2; ``evaluate(side)`` scores the grid for ``side`` as the player who
    has just finished a turn.
    """

    __slots__ = ("cells", "count", "hope", "line_sum")

    def __init__(self, cells: list[int]) -> None:
        self.cells = cells
        # count[side][line]: that side's marks in the line.
        self.count = [[0] * 72, [0] * 72, [0] * 72]
        for n, line in enumerate(_LINES):
            for i in line:
                if cells[i]:
                    self.count[cells[i]][n] += 1
        # line_sum[side]: sum of _TABLE over lines from that side's view.
        self.line_sum = [0.0, 0.0, 0.0]
        for side in (ME, OPP):
            mine, theirs = self.count[side], self.count[3 - side]
            self.line_sum[side] = sum(_TABLE[mine[n]][theirs[n]] for n in range(72))
        # hope[side][board]: the board's worth toward bonuses (1.0 once it holds a line).
        self.hope = [[0.0] * 9, [0.0] * 9, [0.0] * 9]
        for board in range(9):
            self._refresh_board(board)

    def empties(self) -> list[int]:
        return [i for i, cell in enumerate(self.cells) if not cell]

    def _refresh_board(self, board: int) -> None:
        for side in (ME, OPP):
            mine, theirs = self.count[side], self.count[3 - side]
            best = -1
            for n in range(board * 8, board * 8 + 8):
                if mine[n] == 3:
                    best = 3
                    break
                if theirs[n] == 0 and mine[n] > best:
                    best = mine[n]
            self.hope[side][board] = 1.0 if best == 3 else (0.0 if best < 0 else _BOARD_HOPE[best])

    def place(self, index: int, side: int) -> None:
        self._change(index, side, +1)
        self.cells[index] = side

    def remove(self, index: int) -> None:
        side = self.cells[index]
        self._change(index, side, -1)
        self.cells[index] = 0

    def _change(self, index: int, side: int, step: int) -> None:
        mine, theirs = self.count[side], self.count[3 - side]
        sums = self.line_sum
        for n in _LINES_OF[index]:
            a, b = mine[n], theirs[n]
            sums[side] += _TABLE[a + step][b] - _TABLE[a][b]
            sums[3 - side] += _TABLE[b][a + step] - _TABLE[b][a]
            mine[n] = a + step
        self._refresh_board(index // 9)

    def bonus_value(self, side: int) -> float:
        hope = self.hope[side]
        total = 0.0
        for a, b, c in _GRID_LINES:
            product = hope[a] * hope[b] * hope[c]
            total += _BONUS if product == 1.0 else _BONUS * _BONUS_HOPE_WEIGHT * product
        return total

    def evaluate(self, side: int) -> float:
        return self.line_sum[side] + self.bonus_value(side) - self.bonus_value(3 - side)

    def completable_lines(self, side: int, marks_left: int) -> list[list[int]]:
        """Empty squares of each of ``side``'s open lines that ``marks_left`` marks can finish (2+ marks)."""
        mine, theirs = self.count[side], self.count[3 - side]
        found = []
        for n in range(72):
            need = 3 - mine[n]
            if theirs[n] == 0 and 2 <= need <= marks_left:
                found.append([i for i in _LINES[n] if not self.cells[i]])
        return found


def _plan(
    position: _Position,
    side: int,
    marks: int,
    rng: random.Random,
    carelessness: float = 0.0,
    first: int | None = None,
) -> list[int]:
    """Greedy: place ``marks`` marks for ``side`` (left placed), best gain per mark first.

    ``first``, if given, is placed before the greedy choices (to explore other plans).
    """
    placed: list[int] = []
    if first is not None and marks:
        position.place(first, side)
        placed.append(first)
    while len(placed) < marks:
        left = marks - len(placed)
        empties = position.empties()
        if carelessness and rng.random() < carelessness:
            choice = [rng.choice(empties)]
        else:
            base = position.evaluate(side)
            actions: list[list[int]] = [[i] for i in empties]
            if left >= 2:
                actions += position.completable_lines(side, left)
            best_rate = -1e9
            choice = []
            for action in actions:
                for i in action:
                    position.place(i, side)
                rate = (position.evaluate(side) - base) / len(action) + rng.random() * 1e-6
                for i in action:
                    position.remove(i)
                if rate > best_rate:
                    best_rate, choice = rate, action
        for i in choice:
            position.place(i, side)
            placed.append(i)
    return placed


def _improve(position: _Position, side: int, placed: list[int], deadline: float) -> list[int]:
    """Local search: move a placed mark to another empty square while the evaluation rises."""
    placed = list(placed)
    current = position.evaluate(side)
    improved = True
    while improved and time.perf_counter() < deadline:
        improved = False
        for slot in range(len(placed)):
            old = placed[slot]
            position.remove(old)
            best_square, best_value = old, current
            for i in position.empties():
                if i == old:
                    continue
                position.place(i, side)
                value = position.evaluate(side)
                position.remove(i)
                if value > best_value + 1e-9:
                    best_square, best_value = i, value
            position.place(best_square, side)
            if best_square != old:
                placed[slot], current, improved = best_square, best_value, True
            if time.perf_counter() >= deadline:
                break
    return placed


def _expected_after_reply(position: _Position, side: int, rng: random.Random) -> float:
    """Average over the opponent's six rolls of the grid's worth to ``side`` after their greedy reply."""
    other = 3 - side
    empty_count = len(position.empties())
    total = 0.0
    for roll in range(1, 7):
        reply = _plan(position, other, min(roll, empty_count), rng)
        total -= position.evaluate(other)
        for i in reply:
            position.remove(i)
    return total / 6


def _read(variant: Variant, state: State, seat: Seat) -> tuple[_Position, int]:
    view: dict[str, Any] = variant.view(state, seat)
    mine = view["letters"][seat]
    cells = [
        0 if cell is None else (ME if cell == mine else OPP) for board in view["board"] for cell in board
    ]
    return _Position(cells), int(view["marks_to_place"])


def _as_move(indexes: list[int]) -> Move:
    return {"marks": [[i // 9 + 1, i % 9 + 1] for i in sorted(indexes)]}


def strong_move(
    variant: Variant,
    state: State,
    seat: Seat,
    rng: random.Random,
    *,
    time_limit: float = 0.5,
    candidates: int = 4,
) -> Move:
    """The best move found within ``time_limit`` seconds.

    ``candidates`` moves (greedy plans, improved by local search) are compared by
    expectimax over the opponent's roll; ``candidates=1`` skips the expectimax (cheap mode
    for tests and for weak hardware).
    """
    start = time.perf_counter()
    deadline = start + time_limit
    position, marks = _read(variant, state, seat)
    if marks >= len(position.empties()):
        return _as_move(position.empties())
    # The first candidate is the plain greedy plan; the others begin with the next-best
    # single squares, to explore other plans.
    openings: list[int | None] = [None]
    if candidates > 1:
        base = position.evaluate(ME)
        gains = []
        for i in position.empties():
            position.place(i, ME)
            gains.append((position.evaluate(ME) - base + rng.random() * 1e-6, i))
            position.remove(i)
        openings += [i for _, i in sorted(gains, reverse=True)[1:candidates]]
    plans: list[list[int]] = []
    for n, opening in enumerate(openings):
        if n and time.perf_counter() > start + time_limit * 0.4:
            break
        placed = _plan(position, ME, marks, rng, first=opening)
        placed = _improve(position, ME, placed, start + time_limit * 0.4 * (n + 1) / len(openings))
        for i in placed:
            position.remove(i)
        if sorted(placed) not in plans:
            plans.append(sorted(placed))
    if len(plans) == 1:
        return _as_move(plans[0])
    best_plan, best_value = plans[0], -1e9
    for plan in plans:
        if time.perf_counter() > deadline:
            break
        for i in plan:
            position.place(i, ME)
        value = _expected_after_reply(position, ME, rng)
        for i in plan:
            position.remove(i)
        if value > best_value:
            best_plan, best_value = plan, value
    return _as_move(best_plan)


def casual_move(variant: Variant, state: State, seat: Seat, rng: random.Random) -> Move:
    """The greedy planner alone, with about one careless mark in five."""
    position, marks = _read(variant, state, seat)
    return _as_move(_plan(position, ME, marks, rng, carelessness=0.2))
