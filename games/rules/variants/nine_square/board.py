"""Nine-Square's template context: nine small boards of squares to pick marks on."""

from __future__ import annotations

from typing import Any

from ...boards import ListedMove


def build_board(
    view: dict[str, Any], legal: list[ListedMove], seat: int | None, my_turn: bool
) -> dict[str, Any]:
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
            }
            for b, cells in enumerate(view["board"], start=1)
        ],
        "last": {tuple(m) for m in ((view.get("last_turn") or {}).get("marks") or [])},
    }
