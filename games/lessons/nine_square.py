"""Nine-Square's lesson: the die, a three in a row on one board, and three boards in a
row for the bonus. The seed is fixed, so the rolls are known: 3 for the set-up turn of
X, 2 for O's, then 3 for the learner, 2 for the coach and 3 again."""

from __future__ import annotations

from typing import Any

from .lesson import Lesson, Step

#: The eight lines of a 3x3 board, squares numbered 1..9 from the top left.
LINES = (
    {1, 2, 3}, {4, 5, 6}, {7, 8, 9},
    {1, 4, 7}, {2, 5, 8}, {3, 6, 9},
    {1, 5, 9}, {3, 5, 7},
)  # fmt: skip


def _line_on(board: int) -> Any:
    """Whether a move's marks are exactly a three in a row on ``board``."""

    def accepts(move: Any) -> bool:
        marks = move["marks"]
        return (
            len(marks) == 3
            and all(int(b) == board for b, _ in marks)
            and {int(s) for _, s in marks} in LINES
        )

    return accepts


LESSON = Lesson(
    slug="nine-square",
    variant="nine-square",
    title="Nine-Square: the die and three boards in a row",
    summary="Place as many marks as the die shows: a line on one board, then three boards in a row for the bonus.",
    options={"x_player": "player-one"},
    seed="lesson-1660",
    setup=(
        (0, {"marks": [[1, 1], [1, 2], [1, 3]]}),
        (1, {"marks": [[5, 1], [5, 5]]}),
    ),
    steps=(
        Step(
            instruction=(
                "Each turn the die says how many marks you place, anywhere on the nine boards (boards 1 to 9 "
                "from the top left, and the squares of each board the same way: each square shows its "
                "number in its corner). A three in a row on one board scores 1 point: you, X, have one on "
                "board 1 (top left). The die shows 3: click three squares in a line on board 2 (top middle), "
                "then Submit marks."
            ),
            move={"marks": [[2, 4], [2, 5], [2, 6]]},
            hint="Place your three marks in a line (a row, a column or a diagonal) on board 2, the top middle board.",
            replies=({"marks": [[5, 9], [9, 1]]},),
            accepts=_line_on(2),
        ),
        Step(
            instruction=(
                "The coach rolled 2 and finished a diagonal on board 5 (the centre board): 1 point for O. You "
                "hold lines on boards 1 and 2 (top left and top middle). Three boards in a row, each with a line of yours, add 3 points more. "
                "The die shows 3 again: make a line on board 3, the top right board."
            ),
            move={"marks": [[3, 1], [3, 5], [3, 9]]},
            hint="Place your three marks in a line on board 3, the top right board, to line up boards 1, 2 and 3.",
            accepts=_line_on(3),
        ),
    ),
    outro=(
        "Boards 1, 2 and 3, the top row of boards, each hold a line of yours: 3 lines and a 3-point bonus. Play on against "
        "the coach if you like: the game ends when every square is marked or nothing more can score."
    ),
)
