"""Which lines scored in Nine-Square, and for whom: what the board draws and the result says.

From a view's ``board`` (nine boards of nine marks, "X", "O" or None), for each letter:
the three in a rows on each small board (1 point each), the boards it fills entirely (all
eight lines: 8 points, "completely filling a board is worth 8 points"), and the lines of
three boards on each of which it holds a line (3 points each). The totals are the
engine's (variant.points): tests/games/rules/test_nine_square_results.py holds them equal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...results import and_list, line_name

#: The 8 lines of a 3x3 grid as 0-based positions: three rows, three columns, two diagonals.
GRID_LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)  # fmt: skip
#: Points for three boards in a row on which the same player has three in a row.
BOARD_LINE_BONUS = 3
#: The points of a board filled with one letter: all its eight lines.
FULL_BOARD_POINTS = len(GRID_LINES)

Board = Sequence[Sequence[str | None]]


@dataclass(frozen=True, slots=True)
class Scored:
    """What one letter has scored."""

    letter: str
    #: (board, line) pairs: board 1..9, line an index into GRID_LINES.
    lines: tuple[tuple[int, int], ...]
    #: Boards (1..9) the letter fills entirely (their eight lines are in ``lines`` too).
    full: tuple[int, ...]
    #: Lines of boards (indexes into GRID_LINES) whose three boards each hold a line.
    board_lines: tuple[int, ...]

    @property
    def line_points(self) -> int:
        return len(self.lines)

    @property
    def bonus_points(self) -> int:
        return BOARD_LINE_BONUS * len(self.board_lines)

    @property
    def points(self) -> int:
        return self.line_points + self.bonus_points


def scored(board: Board, letter: str) -> Scored:
    lines = tuple(
        (b, n) for b in range(1, 10) for n, line in enumerate(GRID_LINES) if all(board[b - 1][i] == letter for i in line)
    )
    with_a_line = {b for b, _ in lines}
    full = tuple(b for b in range(1, 10) if all(mark == letter for mark in board[b - 1]))
    board_lines = tuple(n for n, line in enumerate(GRID_LINES) if all(b + 1 in with_a_line for b in line))
    return Scored(letter, lines, full, board_lines)


def board_line_name(n: int) -> str:
    """A line of boards in words: "the top row of boards", "the diagonal of boards 1, 5 and 9"."""
    boards = [b + 1 for b in GRID_LINES[n]]
    if n >= 6:
        return f"the diagonal of boards {and_list(boards)}"
    return f"{line_name(boards, 3)} of boards"


def in_words(score: Scored) -> str:
    """What a letter scored, in words: "lines on boards 1, 5 (2 lines) and 9, board 3 full, and the
    diagonal of boards 1, 5 and 9"; "no line" when nothing."""
    per_board: dict[int, int] = {}
    for b, _ in score.lines:
        if b not in score.full:
            per_board[b] = per_board.get(b, 0) + 1
    parts = []
    if per_board:
        boards = [f"{b} ({count} lines)" if count > 1 else str(b) for b, count in sorted(per_board.items())]
        word = "lines" if sum(per_board.values()) > 1 else "a line"
        parts.append(f"{word} on board{'s' if len(boards) > 1 else ''} {and_list(boards)}")
    if score.full:
        parts.append(f"board{'s' if len(score.full) > 1 else ''} {and_list(list(score.full))} full")
    parts.extend(board_line_name(n) for n in score.board_lines)
    if not parts:
        return "no line"
    return and_list(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + ", and " + parts[-1]
