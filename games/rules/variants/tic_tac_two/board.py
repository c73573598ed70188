"""Tic Tac Two's template context: the 4x4 grid with its Voids, Intersects, Dibs and Walls,
and the legal moves split into letters (on the grid) and other moves (the action list)."""

from __future__ import annotations

from typing import Any

from ...boards import ListedMove, square_label


def build_board(
    view: dict[str, Any], legal: list[ListedMove], seat: int | None, my_turn: bool
) -> dict[str, Any]:
    writable = {i["move"]["cell"] for i in legal if i["kind"] == "write"}
    voids = set(view.get("voids") or [])
    intersects = set(view.get("intersects") or [])
    dibs = {d["cell"]: d["owner"] for d in view.get("dibs") or []}
    walls: dict[int, list[str]] = {}
    for wall in view.get("walls") or []:
        walls.setdefault(wall["cell"], []).append(wall["side"])
    win = {c for line in view.get("winning_lines") or [] for c in line}
    cells = []
    for n, mark in enumerate(view["board"], start=1):
        extras = (["void"] if n in voids else []) + (["intersect"] if n in intersects else [])
        if n in dibs:
            extras.append(f"dibs of {view['letters'][dibs[n]]}")
        extras += [f"wall {side}" for side in walls.get(n, [])]
        cells.append(
            {
                "n": n,
                "mark": mark,
                "legal": n in writable,
                "void": n in voids,
                "win": n in win,
                "intersect": n in intersects,
                "dibs": dibs.get(n),
                "walls": " ".join(f"wall-{s}" for s in walls.get(n, [])),
                "label": square_label(n, mark) + "".join(f", {e}" for e in extras),
            }
        )
    return {
        "cells": cells,
        "letter_moves": [i for i in legal if i["kind"] == "write"],
        "other_moves": [i for i in legal if i["kind"] != "write"],
    }
