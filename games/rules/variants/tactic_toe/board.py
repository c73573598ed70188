"""Tactic-Toe's template context: the grid to plan on, and the round's limits in words."""

from __future__ import annotations

from typing import Any

from ... import results
from ...boards import ListedMove, square_label

ROUND_RULES = {
    1: "Round 1: three different squares, not the centre (5), and not three in a row.",
    2: "Round 2: the centre is allowed now, but none of the squares you chose in round 1, and no square twice.",
    3: "Round 3: anything goes: any squares, repeats allowed (5, 5, 5 takes an empty centre unless both write it).",
}


def _why_not(n: int, mark: str | None, forbidden: set[int], planning: bool) -> str:
    """Why a square cannot be picked this round, for its label ("" where it can)."""
    if n in forbidden:
        return ", not allowed this round"
    if planning and mark is not None:
        return ", already taken: a mark planned here would be lost"
    return ""


def build_board(
    view: dict[str, Any], legal: list[ListedMove], seat: int | None, my_turn: bool
) -> dict[str, Any]:
    forbidden = set(view.get("forbidden") or [])
    round_no = view.get("round") or 0
    planning = my_turn and view.get("your_plan") is None
    # Every line made (both players' in a tie game) is shown as won.
    win = {n for mark in view.get("marks") or [] for line in results.lines_held(view["board"], mark) for n in line}
    return {
        "cells": [
            {
                "n": n,
                "mark": mark,
                "label": square_label(n, mark) + _why_not(n, mark, forbidden, planning),
                # A square taken before the round may be written (the rules allow it from
                # round 2 on: docs/rules/tactic-toe.md), but its mark is always lost, so
                # the board does not offer it: a player does not do it by accident.
                "legal": planning and n not in forbidden and mark is None,
                "win": n in win,
            }
            for n, mark in enumerate(view["board"], start=1)
        ],
        "planning": planning,
        "taken_note": (
            "Squares already taken are not offered: the rules let you write one, but its mark would be lost."
            if planning and any(view["board"]) else ""
        ),
        "repeats": round_no >= 3,
        "round_rules": ROUND_RULES.get(round_no, ""),
        "rounds": view.get("rounds") or [],
    }
