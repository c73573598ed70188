"""The classic board's template context: nine squares, the playable, winning and last ones marked."""

from __future__ import annotations

from typing import Any

from ...boards import ListedMove, square_label


def build_board(
    view: dict[str, Any], legal: list[ListedMove], seat: int | None, my_turn: bool
) -> dict[str, Any]:
    playable = {item["move"]["cell"] for item in legal}
    win = set(view.get("winning_line") or [])
    return {
        "cells": [
            {
                "n": n,
                "mark": mark,
                "label": square_label(n, mark),
                "legal": n in playable,
                "win": n in win,
                "last": view.get("last_cell") == n,
            }
            for n, mark in enumerate(view["board"], start=1)
        ]
    }
