"""T-Tic-T-Tac-Toe's lessons. ``STANDARD``, the standard rules (Version 1.0): the centre
wall from the start, torn down, and a super that only gooshes. ``LESSON``, Version 2.0
(an empty board; supers goosh and fill): an
Iron Curtain and its two full turns of protection, a Berlin Wall around a square, a
Checkpoint Charlie, a super's goosh, and a win that goes around the end of a wall.
The /learn/ card and the first step say so first, with how the standard Version 1.0
differs (rule 2.05): a newcomer read it only on the last screen.

Moves are numbered from 1; the learner is X and makes the odd moves. The curtain of
move 5 is protected during moves 6 to 9, so the coach snips it on move 10, the first
move the rules allow (docs/rules/t-tic-t-tac-toe.md, 4.04(c)).
"""

from __future__ import annotations

from typing import Any

from .lesson import Lesson, Step


def _place(square: int) -> dict[str, Any]:
    return {"action": "place", "square": square}


LESSON = Lesson(
    slug="t-tic-t-tac-toe",
    variant="t-tic-t-tac-toe",
    title="T-Tic-T-Tac-Toe: curtains, walls, checkpoints and supers",
    summary=(
        "Plays Version 2.0, where the board starts empty and a super also writes your letters. The standard "
        "game is Version 1.0: a Berlin Wall around the centre square from the start, and a super only erases. "
        "A 5x5 board, three in a row: block with an Iron Curtain and a Berlin Wall, protect, goosh and win."
    ),
    options={"version": "2.0"},
    steps=(
        Step(
            instruction=(
                "This lesson plays Version 2.0: the board starts empty and a super also writes your letters. "
                "The standard game is Version 1.0, where a Berlin Wall stands around the centre square from the "
                "start and a super only erases. "
                "A 5x5 board, squares 1 to 25 from the top left (each shows its number in its corner); "
                "three in a row wins, as long as no "
                "blockage separates the squares. You are X and move first: the first move must be a "
                "letter. Take the centre, square 13."
            ),
            move=_place(13),
            hint="Click the centre square, 13, to place your X.",
            replies=(_place(14),),
        ),
        Step(
            instruction="The coach placed O on 14. Place X on 8, just above your 13: X now eyes the column 3-8-13.",
            move=_place(8),
            hint="Click square 8 (second row, middle) to place your X.",
            replies=(_place(18),),
        ),
        Step(
            instruction=(
                "O holds 14 and 18: a diagonal that wins on 10 or on 22. Two threats at once, but one "
                "Iron Curtain cuts both. A curtain runs along a whole inner line of the grid; the line between "
                "rows 3 and 4 runs between 14 and 18. Pick the Iron Curtain tool above the board, then that line "
                "(on a touch screen, tap it twice: the first tap shows it; or choose "
                "\u201cIron Curtain on the line between rows 3 and 4\u201d in the action list and press Play). "
                "For two full turns (the next four moves) nobody can snip it."
            ),
            move={"action": "curtain", "line": "h3"},
            hint=(
                "Play the Iron Curtain on the line between rows 3 and 4 (the Iron Curtain tool, or "
                "\u201cIron Curtain on the line between rows 3 and 4\u201d in the action list)."
            ),
            replies=(_place(3),),
        ),
        Step(
            instruction=(
                "The coach blocked your column on 3. Your curtain can be snipped after its protection "
                "ends, so cut O's 18 off for good: a Berlin Wall around 18 closes all four sides of the "
                "square. Pick the Berlin Wall tool, then square 18 (or \u201cBerlin Wall around square 18\u201d in the "
                "action list). A wall is protected for two full turns too."
            ),
            move={"action": "wall", "around": 18},
            hint=(
                "Play the Berlin Wall around square 18 (the Berlin Wall tool, then square 18; or "
                "\u201cBerlin Wall around square 18\u201d in the action list): it walls in the coach's O on 18."
            ),
            replies=(_place(25),),
        ),
        Step(
            instruction=(
                "A Checkpoint Charlie on a blockage adds two more full turns of protection. Put your "
                "checkpoint on the wall around 18: the Checkpoint Charlie tool, then that wall (or "
                "\u201cCheckpoint Charlie on the Berlin Wall around square 18\u201d in the action list). "
                "Then watch the coach: your curtain's two full turns are over on the next move."
            ),
            move={"action": "checkpoint", "around": 18},
            hint=(
                "Put your Checkpoint Charlie on the wall around 18 (the Checkpoint Charlie tool, or "
                "\u201cCheckpoint Charlie on the Berlin Wall around square 18\u201d in the action list)."
            ),
            replies=({"action": "snip", "line": "h3"},),
        ),
        Step(
            instruction=(
                "The coach snipped your curtain with wire cutters: it had its two full turns. Your wall "
                "still holds (the checkpoint). Now a super: it covers a 2x2 square, gooshes (erases) the "
                "other player's letters there and, in Version 2.0, writes yours on its empty squares. "
                "Pick the Super tool, then the corner 12, 13, 17 and 18 share (or \u201csuper on squares 12, 13, 17, 18\u201d "
                "in the action list): it gooshes O's 18 and writes X on 12 and 17."
            ),
            move={"action": "super", "square": 12},
            hint=(
                "Play the super on squares 12, 13, 17, 18 (the Super tool, then the corner those four "
                "squares share; or \u201csuper on squares 12, 13, 17, 18\u201d in the action list)."
            ),
            replies=({"action": "wall", "segments": ["17|22", "18|23"]},),
        ),
        Step(
            instruction=(
                "The coach built a Berlin Wall under 17 and 18, cutting your column 12-17-22. You have "
                "six wins now (4, 7, 9, 11 and 16 would each make three in a row too), but one of them is "
                "worth learning: a wall has ends, and a line may go around an end. The diagonal 13-17-21 "
                "passes the wall's left end. Place X on 21 and win that way."
            ),
            move=_place(21),
            hint=(
                "This step is about going around a wall's end: click square 21 (bottom left), where the "
                "diagonal 13-17-21 passes the end of the coach's wall."
            ),
        ),
    ),
    outro=(
        "Three in a row round the end of a wall: you won! You blocked with an Iron Curtain and a "
        "Berlin Wall, protected with a Checkpoint Charlie and gooshed with a super: every special "
        "action of T-Tic-T-Tac-Toe. As the first step said, this was Version 2.0; in the standard "
        "Version 1.0 the board starts with a Berlin Wall around the centre, 13, and a super only gooshes: it "
        "writes no letters of yours."
    ),
)

#: The standard rules, Version 1.0: the board drawer's wall around 13 (protected during
#: moves 1 to 4, rule 3.1.02), torn down on move 5, and a super that only gooshes (5.1.00).
STANDARD = Lesson(
    slug="t-tic-t-tac-toe-standard",
    variant="t-tic-t-tac-toe",
    title="T-Tic-T-Tac-Toe, standard rules: the centre wall and a super that erases",
    summary=(
        "The standard game, Version 1.0: the board starts with a Berlin Wall around the centre square. "
        "Tear it down with a Ronald Reagan, erase with a super (it writes none of your letters) and win "
        "through the centre."
    ),
    options={"version": "1.0"},
    steps=(
        Step(
            instruction=(
                "This lesson plays the standard rules, Version 1.0: before anyone moves, a Berlin Wall "
                "stands around the centre square, 13, and a super only erases. A 5x5 board, squares 1 to "
                "25 from the top left (each shows its number in its corner); three in a row wins, as long "
                "as no blockage separates the squares. You are X and move first, with a letter: place X "
                "on 7, just above and left of the centre."
            ),
            move=_place(7),
            hint="Click square 7 (second row, second from the left) to place your X.",
            replies=(_place(9),),
        ),
        Step(
            instruction=(
                "7 and 19 lie on the diagonal 7-13-19, but the wall around 13 cuts it: no line may go "
                "into the walled square. Place X on 19 all the same: the wall can come down."
            ),
            move=_place(19),
            hint="Click square 19 (fourth row, fourth from the left) to place your X.",
            replies=(_place(21),),
        ),
        Step(
            instruction=(
                "The centre wall could not be touched for the first two full turns, moves 1 to 4. This is "
                "move 5: tear it down. Pick the Destroy tool, then the wall around 13 (or "
                "\u201cRonald Reagan: tear down the Berlin Wall around square 13\u201d in the action list)."
            ),
            move={"action": "tear-down", "around": 13},
            hint=(
                "Tear down the wall around 13 (the Destroy tool, then that wall; or \u201cRonald Reagan: "
                "tear down the Berlin Wall around square 13\u201d in the action list)."
            ),
            replies=(_place(13),),
        ),
        Step(
            instruction=(
                "The coach took 13 and blocked your diagonal. A super erases (gooshes) the other player's "
                "letters in a 2x2 block; in Version 1.0 it writes none of yours. Pick the Super tool, then "
                "the corner 7, 8, 12 and 13 share (or \u201csuper on squares 7, 8, 12, 13\u201d in the action "
                "list): it gooshes O's 13 and leaves your 7 where it is."
            ),
            move={"action": "super", "square": 7},
            hint=(
                "Play the super on squares 7, 8, 12, 13 (the Super tool, then the corner those four squares "
                "share; or \u201csuper on squares 7, 8, 12, 13\u201d in the action list)."
            ),
            replies=(_place(25),),
        ),
        Step(
            instruction="13 is empty again and the wall is gone: place X on 13 for 7-13-19.",
            move=_place(13),
            hint="Click the centre square, 13, to complete the diagonal 7-13-19.",
        ),
    ),
    outro=(
        "Three in a row through the centre: you won the standard game's way! The wall around 13 "
        "stood from the start, you tore it down once its two full turns were over, and your super "
        "erased O's letter without writing one of yours. The Version 2.0 lesson shows the other "
        "blockages: Iron Curtains, your own Berlin Wall and Checkpoint Charlies."
    ),
)

LESSONS = (STANDARD, LESSON)
