"""Tic Tac Two's lessons: a 4x4 grid, four in a row, and a draft of special actions.
Each lesson's learner drafts (or is dealt) three actions and uses them on the way to a
win. Seat 1 (O, the coach) picks first, as the text says; the learner is X."""

from __future__ import annotations

from typing import Any

from .lesson import Lesson, Step


def _pick(action: str) -> dict[str, str]:
    return {"type": "pick", "action": action}


def _write(cell: int) -> dict[str, Any]:
    return {"type": "write", "cell": cell}


DRAFT = Lesson(
    slug="tic-tac-two",
    variant="tic-tac-two",
    title="Tic Tac Two: the draft, Double and Swap",
    summary="Draft three special actions, then win four in a row with a Double and a Swap.",
    setup=((1, _pick("dibs")),),
    steps=(
        Step(
            instruction=(
                "A 4x4 grid, squares 1 to 16 from the top left: four in a row wins. First the draft: "
                "the players pick three special actions each, in turn, and each is used once. The coach "
                "took Dibs Space. Pick Double: it writes one extra X on a turn. Choose \u201cpick Double\u201d "
                "in the action list and play it."
            ),
            move=_pick("double"),
            hint="Pick Double from the action list.",
            replies=(_pick("intersect"),),
        ),
        Step(
            instruction=(
                "Pick Swap: it exchanges the contents of two touching squares (diagonals too), an X with an "
                "O, or a letter with an empty square. Two letters alike cannot be swapped."
            ),
            move=_pick("swap"),
            hint="Pick Swap from the action list.",
            replies=(_pick("wall"),),
        ),
        Step(
            instruction=(
                "One action is left: Shift, which pushes a whole row or column one square, wrapping the "
                "end round to the other side. Pick it."
            ),
            move=_pick("shift"),
            hint="Pick Shift from the action list.",
        ),
        Step(
            instruction=(
                "Play begins; X writes first, and a first turn is only a letter. Click square 6 to write your X."
            ),
            move=_write(6),
            hint="Click square 6 (second row, second square).",
            replies=(_write(10),),
        ),
        Step(
            instruction=(
                "From your second turn on, one special action may come before your letter; writing your "
                "letter ends the turn. Use Double now: choose \u201cdouble 7\u201d and play it. Your turn goes on."
            ),
            move={"type": "double", "cell": 7},
            hint="Play \u201cdouble 7\u201d from the action list: an extra X on square 7.",
        ),
        Step(
            instruction="Now write your turn's letter on 8: X holds 6, 7 and 8 and threatens the row on 5.",
            move=_write(8),
            hint="Click square 8 to write your letter and end the turn.",
            replies=(_write(5),),
        ),
        Step(
            instruction=(
                "The coach blocked on 5. Swap moves a letter into a touching empty square: choose "
                "\u201cswap 5<>9\u201d to push the O down to 9 and free square 5."
            ),
            move={"type": "swap", "cells": [5, 9]},
            hint="Play \u201cswap 5<>9\u201d from the action list: it moves the coach's O from 5 to 9.",
        ),
        Step(
            instruction="Square 5 is free again. Write your X there: four in a row.",
            move=_write(5),
            hint="Click square 5 to complete the row 5-6-7-8.",
        ),
    ),
    outro=(
        "Four in a row: you won! You drafted three actions, doubled up and swapped a blocker away. "
        "The next lesson tries Shift, Dibs Space, Intersect Space and the Wall."
    ),
)

LESSONS = (DRAFT,)
