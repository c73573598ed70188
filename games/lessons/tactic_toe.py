"""Tactic-Toe's lesson: a plan of three squares written in secret, a bounce when both
players choose the same square at once, and a round-two plan that blocks and wins. The
text's own worked example (A: 2, 3, 7; B: 2, 7, 1) is round one."""

from __future__ import annotations

from .lesson import Lesson, Step


def _plan(a: int, b: int, c: int) -> dict[str, list[int]]:
    return {"plan": [a, b, c]}


LESSON = Lesson(
    slug="tactic-toe",
    variant="tactic-toe",
    title="Tactic-Toe: plans that bounce",
    summary="Write a secret plan of three squares, see two marks bounce, then block and win.",
    steps=(
        Step(
            instruction=(
                "Both players write a secret plan of three squares (1 to 9 from the top left: each square "
                "shows its number in its corner), then "
                "the plans are played pair by pair: both first squares together, then both second "
                "squares, then both third. In round 1 you may not use the centre 5, repeat a square "
                "or plan a three in a row. Plan 2, 3, 7: click the squares in that order, then Submit "
                "plan. The coach will also go for 2 first: when two marks land on the same empty square "
                "at once, both bounce out and it stays empty."
            ),
            move=_plan(2, 3, 7),
            hint="Plan the squares 2, 3 and 7, in that order (top middle, top right, bottom left).",
            replies=(_plan(2, 7, 1),),
        ),
        Step(
            instruction=(
                "Round 1 went: 2 bounced (both chose it), you got 3 and O got 7, then your 7 came too "
                "late (O was there first) and O got 1. O now holds 1 and 7: the left column needs only 4. "
                "In round 2 you may not reuse your round-1 squares (2, 3, 7). Plan 4, 6, 9: block 4 first, "
                "then 6 and 9 make your column 3-6-9."
            ),
            move=_plan(4, 6, 9),
            hint="Plan 4, 6, 9 in that order: 4 blocks O's column first, then 6 and 9 finish your column 3-6-9.",
            replies=(_plan(5, 8, 6),),
        ),
    ),
    outro=(
        "Your 4 blocked O first; O's 6 came after your 6 and was too late. X has 3-6-9: you won! "
        "A square goes to whoever gets there first; a tie of timing bounces both out."
    ),
)
