"""The classic game's lesson: take the centre, make a threat, block one, win with three
in a row. The learner is X (Player One) and moves first; the coach is O."""

from __future__ import annotations

from .lesson import Lesson, Step


def _cell(n: int) -> dict[str, int]:
    return {"cell": n}


LESSON = Lesson(
    slug="classic",
    variant="classic",
    title="Tic Tac Toe: three in a row",
    summary="Place your X, block the coach's line and win with three in a row.",
    steps=(
        Step(
            instruction=(
                "You are X and you move first. Squares are numbered 1 to 9 from the top left: each shows its "
                "number in its corner. "
                "Take the centre, square 5: it lies on four lines, more than any other square."
            ),
            move=_cell(5),
            hint="Put your X in the centre, square 5 (the middle of the grid).",
            replies=(_cell(1),),
        ),
        Step(
            instruction=(
                "The coach took the corner 1. Now make a threat: put X on square 3 (top right). "
                "With 5 and 3 you threaten the diagonal 3-5-7, so the coach must block 7."
            ),
            move=_cell(3),
            hint="Put your X on square 3, the top right corner.",
            replies=(_cell(7),),
        ),
        Step(
            instruction=(
                "The coach blocked on 7, and now O holds 1 and 7: O threatens the left column 1-4-7. "
                "Block it: put X on square 4 (middle left). It also gives you the row 4-5-6."
            ),
            move=_cell(4),
            hint="O will win on square 4 unless you block: put your X on 4, the middle left square.",
            replies=(_cell(8),),
        ),
        Step(
            instruction=(
                "The coach missed your threat: X holds 4 and 5. Win with three in a row: put X on "
                "square 6 (middle right)."
            ),
            move=_cell(6),
            hint="Square 6, the middle right, completes your row 4-5-6.",
        ),
    ),
    outro=(
        "Three in a row: you won! That is the whole game: take good squares, block the other "
        "player's two-in-a-row, and make threats they cannot all block."
    ),
)
