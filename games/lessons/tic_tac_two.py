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
                "A 4x4 grid, squares 1 to 16 from the top left (each shows its number in its corner): "
                "four in a row wins. First the draft: "
                "the players pick three special actions each, in turn, and each is used once. The coach "
                "took Dibs Space. Take the Double card: it writes one extra X on a turn. Press its \u201cTake this card\u201d "
                "button (or choose \u201cpick Double\u201d in the action list)."
            ),
            move=_pick("double"),
            hint="Take the Double card (or \u201cpick Double\u201d in the action list).",
            replies=(_pick("intersect"),),
        ),
        Step(
            instruction=(
                "Take the Swap card: it exchanges the contents of two touching squares (diagonals too), an X with an "
                "O, or a letter with an empty square. Two letters alike cannot be swapped."
            ),
            move=_pick("swap"),
            hint="Take the Swap card (or \u201cpick Swap\u201d in the action list).",
            replies=(_pick("wall"),),
        ),
        Step(
            instruction=(
                "One action is left: Shift, which pushes a whole row or column one square, wrapping the "
                "end round to the other side. Take it."
            ),
            move=_pick("shift"),
            hint="Take the Shift card (or \u201cpick Shift\u201d in the action list).",
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
                "letter ends the turn. Use Double now: press \u201cUse Double\u201d, then square 7 (or \u201cdouble 7\u201d in the action list). Your turn goes on."
            ),
            move={"type": "double", "cell": 7},
            hint="Use Double on square 7 (\u201cUse Double\u201d, then square 7): an extra X there.",
        ),
        Step(
            instruction="Now write your turn's letter on 8: X holds 6, 7 and 8 and threatens the row on 5.",
            move=_write(8),
            hint="Click square 8 to write your letter and end the turn.",
            replies=(_write(5),),
        ),
        Step(
            instruction=(
                "The coach blocked on 5. Swap moves a letter into a touching empty square: press \u201cUse Swap\u201d, then squares "
                "5 and 9 (or \u201cswap 5<>9\u201d in the action list) to push the O down to 9 and free square 5."
            ),
            move={"type": "swap", "cells": [5, 9]},
            hint="Swap squares 5 and 9 (\u201cUse Swap\u201d, then 5 and 9): it moves the coach's O from 5 to 9.",
        ),
        Step(
            instruction="Square 5 is free again. Write your X there: four in a row.",
            move=_write(5),
            hint="Click square 5 to complete the row 5-6-7-8.",
        ),
    ),
    outro=(
        "Four in a row: you won! You drafted three actions, doubled up and swapped a blocker away. "
        "The next lesson tries Dibs Space, Intersect Space and Shift."
    ),
)


def _draft(*picks: str) -> tuple[tuple[int, dict[str, str]], ...]:
    """The draft as set-up moves: the coach (seat 1) picks first, then the picks alternate."""
    return tuple((1 - n % 2, _pick(action)) for n, action in enumerate(picks))


GRID_FEATURES = Lesson(
    slug="tic-tac-two-dibs-intersect-shift",
    variant="tic-tac-two",
    title="Tic Tac Two: Dibs Space, Intersect Space and Shift",
    summary="Overwrite a letter with Dibs, share a square with Intersect, and Shift a blocker away.",
    setup=_draft("double", "shift", "swap", "dibs", "wall", "intersect"),
    steps=(
        Step(
            instruction=(
                "The draft is done: you hold Shift, Dibs Space and Intersect Space; the coach holds Double, "
                "Swap and Wall. Your first turn is a letter only: write X on square 6 (each square shows its "
                "number in its corner, 1 to 16 from the top left)."
            ),
            move=_write(6),
            hint="Click square 6 (second row, second square).",
            replies=(_write(7),),
        ),
        Step(
            instruction=(
                "The coach wrote O on 7, next to you. Dibs Space reserves a square for you: when you write there, "
                "your letter overwrites whatever is on it, even the other player's letter, and you may do it in "
                "the same turn. Press \u201cUse Dibs Space\u201d, then square 7 (or \u201cdibs 7\u201d in the action list)."
            ),
            move={"type": "dibs", "cell": 7},
            hint="Put your Dibs Space on square 7 (\u201cUse Dibs Space\u201d, then 7): it claims the coach's square for you.",
        ),
        Step(
            instruction="Now write your letter on 7: it overwrites the O. Until you write there, a Dibs Space cannot be swapped, shifted or erased.",
            move=_write(7),
            hint="Click square 7 to overwrite the O with your X.",
            replies=(_write(8),),
        ),
        Step(
            instruction=(
                "The coach blocked on 8. Intersect Space lets an X and an O share one square, and it counts in "
                "both players' lines. Press \u201cUse Intersect Space\u201d, then square 8 (or \u201cintersect 8\u201d in the action list)."
            ),
            move={"type": "intersect", "cell": 8},
            hint="Put your Intersect Space on square 8 (\u201cUse Intersect Space\u201d, then 8).",
        ),
        Step(
            instruction="Write your X on 8 too: the square holds both letters, and X now has 6, 7 and 8.",
            move=_write(8),
            hint="Click square 8 to add your X beside the O.",
            replies=(_write(5),),
        ),
        Step(
            instruction=(
                "The coach blocked the row on 5. Shift pushes a whole row or column one square; what falls off "
                "one end comes back at the other. Press \u201cUse Shift\u201d, then the down arrow of column 1 (or \u201cshift column 1 down\u201d in the action list): the O on 5 moves down to 9."
            ),
            move={"type": "shift", "line": "column", "index": 1, "direction": "down"},
            hint="Shift column 1 down (\u201cUse Shift\u201d, then column 1's down arrow): it moves the O from 5 down to 9.",
        ),
        Step(
            instruction="Square 5 is empty again: write your X there for four in a row (8 holds your X too).",
            move=_write(5),
            hint="Click square 5 to complete the row 5-6-7-8.",
        ),
    ),
    outro=(
        "Four in a row, through a shared square: you won! The last lesson tries the Wall, which blocks a "
        "row or a column and can be toppled onto a square to erase it."
    ),
)

WALL = Lesson(
    slug="tic-tac-two-wall",
    variant="tic-tac-two",
    title="Tic Tac Two: the Wall and its topple",
    summary="Put up a Wall, topple it onto the coach's blocker to erase it, and write there.",
    setup=_draft("dibs", "wall", "intersect", "double", "shift", "swap"),
    steps=(
        Step(
            instruction=(
                "You hold Wall, Double and Swap. Walls stand on the borders between squares and block the row "
                "or column they cross (never a diagonal). First turn, a letter only: write X on square 5 "
                "(each square shows its number in its corner, 1 to 16 from the top left)."
            ),
            move=_write(5),
            hint="Click square 5 (second row, first square).",
            replies=(_write(9),),
        ),
        Step(
            instruction="Use Double for speed: press \u201cUse Double\u201d, then square 6 (or \u201cdouble 6\u201d in the action list).",
            move={"type": "double", "cell": 6},
            hint="Use Double on square 6 (\u201cUse Double\u201d, then 6).",
        ),
        Step(
            instruction="Write your turn's letter on 7: X holds 5, 6 and 7.",
            move=_write(7),
            hint="Click square 7 to write your letter.",
            replies=(_write(8),),
        ),
        Step(
            instruction=(
                "The coach blocked on 8. Put a Wall on the border between 7 and 8: press \u201cUse Wall\u201d, then that border (or \u201cwall 7 right\u201d in the action list). "
                "It blocks your own row for now, but a Wall's owner may topple it whenever they like."
            ),
            move={"type": "wall", "cell": 7, "side": "right"},
            hint="Put your Wall on the border between 7 and 8 (\u201cUse Wall\u201d, then that border).",
        ),
        Step(
            instruction=(
                "Topple it onto 8: press \u201cTopple a Wall\u201d, then the arrow onto 8 (or \u201ctopple onto 8 from left\u201d in the action list). A falling Wall erases the letters "
                "on the square it falls on, then it is gone. Toppling is not a special action: it is free."
            ),
            move={"type": "topple", "cell": 8, "side": "left"},
            hint="Topple your Wall onto square 8 (\u201cTopple a Wall\u201d, then the arrow onto 8): it falls onto the coach's O.",
        ),
        Step(
            instruction="The O on 8 is erased and the Wall is gone. Write your X on 8: four in a row.",
            move=_write(8),
            hint="Click square 8 to complete the row 5-6-7-8.",
        ),
    ),
    outro=(
        "Four in a row: you won, and you have now tried every special action of Tic Tac Two: Double, Swap, "
        "Shift, Dibs Space, Intersect Space and the Wall with its topple."
    ),
)

LESSONS = (DRAFT, GRID_FEATURES, WALL)
