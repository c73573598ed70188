"""T-Tic-T-Tac-Toe's template context: the 5x5 board with its blocked sides drawn.

Only placing one's own letter is played on the board; every other action comes from
the game page's list of legal moves.
"""

from __future__ import annotations

from typing import Any

from ...boards import ListedMove, square_label


def build_board(
    view: dict[str, Any], legal: list[ListedMove], seat: int | None, my_turn: bool
) -> dict[str, Any]:
    placeable = {i["move"]["square"] for i in legal if i["kind"] == "place" and "symbol" not in i["move"]}
    sides: dict[int, set[str]] = {}
    for segment in view.get("blocked_segments") or []:
        a, b = sorted(int(x) for x in segment.split("|"))
        if b == a + 1:  # side by side: the segment is a's right edge, b's left
            sides.setdefault(a, set()).add("right")
            sides.setdefault(b, set()).add("left")
        else:  # one above the other
            sides.setdefault(a, set()).add("bottom")
            sides.setdefault(b, set()).add("top")
    win = set(view.get("winning_line") or [])
    cells = []
    for n, mark in enumerate(view["board"], start=1):
        walls = sorted(sides.get(n, ()))
        label = square_label(n, mark) + (f", blocked {' and '.join(walls)}" if walls else "")
        cells.append(
            {
                "n": n,
                "mark": mark,
                "label": label,
                "legal": n in placeable,
                "win": n in win,
                "walls": " ".join(f"wall-{s}" for s in walls),
            }
        )
    return {"cells": cells}
