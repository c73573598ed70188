"""Tactic-Toe in words, and its one preset (it has no house rules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import results
from ...base import Preset
from ...words import place, square_of, square_words

PRESETS: tuple[Preset, ...] = (
    Preset("tactic-toe-standard", "tactic-toe", "Tactic-Toe: standard rules", "Tactic-Toe rules"),
)


def describe_rules(options: Mapping[str, Any]) -> list[str]:
    return [
        "Tactic-Toe on a 3x3 grid: both players secretly plan three squares, then the plans are "
        "revealed and played pair by pair.",
        "Three rounds, each with its own limits on the plan (round 1 may not use the centre).",
    ]


def describe_result(view: Mapping[str, Any], result: Mapping[str, Any], names: results.Names) -> str:
    """"Lucia (X) wins with three in a row on the top row in round 2." / "Tie game: both made
    a line in round 2 (X on the top row, O on the left column)." / "Cat's game (a draw): nobody
    has three in a row after round 3." (the rule text's word, with what it means for a
    newcomer). A game the platform ended says why (results.py)."""
    if not results.ended_by_rules(view, result):
        return results.default_sentence(view, result, names)
    labels = results.seat_labels(view, names)
    marks = view.get("marks") or ["X", "O"]
    board = view.get("board") or [None] * 9
    round_no = view.get("round")
    held = [results.lines_held(board, marks[seat]) for seat in (0, 1)]
    kind = result.get("result")
    if kind == "win" and held[result["winner"]]:
        head = results.headline(result, labels)
        return f"{head} with three in a row on {_lines(held[result['winner']])} in round {round_no}."
    if kind == "tie" and all(held):
        parts = [f"{marks[seat]} on {_lines(held[seat])}" for seat in (0, 1)]
        where = "; ".join(parts) if any(len(lines) > 1 for lines in held) else results.and_list(parts)
        return f"Tie game: both made a line in round {round_no} ({where})."
    if kind == "draw":
        if all(cell is not None for cell in board) and round_no != 3:
            return f"Cat's game (a draw): the grid is full after round {round_no} and nobody has three in a row."
        return f"Cat's game (a draw): nobody has three in a row after round {round_no}."
    return results.default_sentence(view, result, names)


def _lines(lines: list[tuple[int, int, int]]) -> str:
    """Every line a seat holds: a round's three pairs can make two at once ("the top row
    and the middle column"), and the board marks both; the sentence named only the first
    (walkthrough)."""
    return results.and_list([results.line_name(line, 3) for line in lines])


# -- the move list's words (Variant.describe_move_line) --------------------

#: What became of a planned square in its pair (the rounds' ``results``), in the text's words.
PLAN_RESULTS = {"placed": "placed", "bounced": "bounced out", "invalid": "invalid (taken already)"}


def move_line(move: Mapping[str, Any], seat: int, view: Mapping[str, Any], ply: int) -> str:
    """A plan of three, in order, and once its round is revealed what each became:
    "round 1 plan: square 2 (top middle), bounced out; then 3 (top right), placed; ..."."""
    plan = [square_of(s, 3) for s in move["plan"]]
    if len(plan) != 3:
        raise ValueError(plan)
    number = (ply + 1) // 2  # both plans of a round are its two moves
    revealed = next((r for r in view.get("rounds") or () if r.get("round") == number), None)
    parts = []
    for i, square in enumerate(plan):
        words = (square_words if i == 0 else lambda s, n: f"{s} ({place(s, n)})")(square, 3)
        if revealed is not None:
            result = revealed["pairs"][i]["results"][seat]
            words += f", {PLAN_RESULTS.get(result, result)}"
        parts.append(words if i == 0 else f"then {words}")
    return f"round {number} plan: " + "; ".join(parts)
