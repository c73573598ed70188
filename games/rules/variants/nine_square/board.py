"""Nine-Square's template context: nine small boards of squares to pick marks on, and
what has scored drawn on them (scoring.py): each line of three struck through on its
small board, a board filled by one letter marked (8 points), each line of boards struck
through across the nine boards (3 points), and a legend of who scored what."""

from __future__ import annotations

from typing import Any

from ...boards import ListedMove
from . import scoring

#: How far a strike-through runs past the centres of its end squares (in squares).
OVERHANG = 0.3
#: How far a line of boards is drawn beside the boards' centres, by letter (in boards).
BESIDE = {"X": -0.07, "O": 0.07}


def build_board(
    view: dict[str, Any], legal: list[ListedMove], seat: int | None, my_turn: bool
) -> dict[str, Any]:
    letters = view.get("letters") or ["X", "O"]
    scores = [scoring.scored(view["board"], letters[s]) for s in (0, 1)]
    small_lines: dict[int, list[dict[str, Any]]] = {}
    full: dict[int, str] = {}
    for score in scores:
        for b, n in score.lines:
            small_lines.setdefault(b, []).append(strike(scoring.GRID_LINES[n], score.letter))
        for b in score.full:
            full[b] = score.letter
    return {
        "boards": [
            {
                "b": b,
                "cells": [
                    {
                        "n": n,
                        "mark": mark,
                        "legal": my_turn and mark is None,
                        "label": f"Board {b}, square {n}, {mark or 'empty'}",
                    }
                    for n, mark in enumerate(cells, start=1)
                ],
                # A full board's eight lines are one mark, not eight strokes.
                "lines": [] if b in full else small_lines.get(b, []),
                "full": full.get(b),
            }
            for b, cells in enumerate(view["board"], start=1)
        ],
        # Both letters may hold the same line of boards: each is drawn a little to its side.
        "board_lines": [
            strike(scoring.GRID_LINES[n], score.letter, BESIDE[score.letter])
            for score in scores
            for n in score.board_lines
        ],
        "legend": [legend_row(score) for score in scores],
        "opening": opening(view),
        "last": {tuple(m) for m in ((view.get("last_turn") or {}).get("marks") or [])},
    }


def opening(view: dict[str, Any]) -> dict[str, Any]:
    """Who is X and why (the text: "Each player rolls the die. The person with the highest
    number goes first and is the X player"): the roll that decided it, by seat, and how many
    equal rolls came before it; no rolls where a house rule fixed X in advance. The template
    puts the players' names in."""
    rolls = [list(pair) for pair in view.get("setup_rolls") or []]
    return {"x_seat": view.get("x_seat", 0), "rolls": rolls[-1] if rolls else None, "ties": max(len(rolls) - 1, 0)}


def strike(line: tuple[int, int, int], letter: str, beside: float = 0.0) -> dict[str, Any]:
    """A line through three cells of a 3x3 (squares or boards) in a 3 x 3 drawing space:
    from past the first cell's centre to past the last one's, ``beside`` cells to the side."""
    (r1, c1), (r2, c2) = divmod(line[0], 3), divmod(line[2], 3)
    dx, dy = (c2 - c1) / 2, (r2 - r1) / 2  # one cell along the line, each way
    length = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / length, dy / length
    sx, sy = -uy * beside, ux * beside  # across the line
    return {
        "letter": letter,
        "x1": round(c1 + 0.5 - OVERHANG * ux + sx, 3), "y1": round(r1 + 0.5 - OVERHANG * uy + sy, 3),
        "x2": round(c2 + 0.5 + OVERHANG * ux + sx, 3), "y2": round(r2 + 0.5 + OVERHANG * uy + sy, 3),
    }  # fmt: skip


def legend_row(score: scoring.Scored) -> dict[str, Any]:
    """One letter's points in the legend: lines, full boards, lines of boards, total."""
    others = score.line_points - scoring.FULL_BOARD_POINTS * len(score.full)
    parts = []
    if others:
        parts.append(f"{others} line{'s' if others != 1 else ''} of three ({others})")
    for b in score.full:
        parts.append(f"board {b} full ({scoring.FULL_BOARD_POINTS})")
    for n in score.board_lines:
        parts.append(f"{scoring.board_line_name(n)} ({scoring.BOARD_LINE_BONUS})")
    return {"letter": score.letter, "parts": parts, "points": score.points}
