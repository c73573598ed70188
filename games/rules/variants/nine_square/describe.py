"""Nine-Square in words, and its preset."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import results
from ...base import Preset
from ...words import and_list, place, square_of
from . import scoring

PRESETS: tuple[Preset, ...] = (
    Preset("nine-square-standard", "nine-square", "Nine-Square: standard rules", "Nine-Square rules"),
)

_WHO_IS_X = {
    "roll": "Both players roll the die; the higher roll is X and moves first (ties roll again).",
    "player-one": "House rule: Player One is X and moves first; no roll.",
    "player-two": "House rule: Player Two is X and moves first; no roll.",
}


def describe_rules(options: Mapping[str, Any]) -> list[str]:
    return [
        "Nine-Square: nine 3x3 boards; each turn the die says how many marks to make.",
        _WHO_IS_X[options["x_player"]],
    ]


#: Why the game ended (the engine's end reasons), in words.
END_WORDS = {
    "grid-full": "The grid is full.",
    "nothing-left-to-score": "No line is left that either player could still complete, so the game is tallied.",
}


def describe_result(view: Mapping[str, Any], result: Mapping[str, Any], names: results.Names) -> str:
    """"Lucia (O) wins 19-2: lines on boards 1, 5 and 9, and the diagonal of boards 1, 5 and 9.
    The grid is full." A draw says what each scored; a game the platform ended, why."""
    if not results.ended_by_rules(view, result):
        return results.default_sentence(view, result, names)
    labels = results.seat_labels(view, names)
    head = results.headline(result, labels)
    letters = view["letters"]
    scores = [scoring.scored(view["board"], letters[seat]) for seat in (0, 1)]
    end = END_WORDS.get(str(result.get("reason")), "")
    if result.get("result") == "win":
        why = scoring.in_words(scores[result["winner"]])
    else:
        why = "; ".join(f"{letters[seat]} {scoring.in_words(scores[seat])}" for seat in (0, 1))
    return f"{head}: {why}. {end}".strip()


# -- the move list's words (Variant.describe_move_line) --------------------

def move_line(move: Mapping[str, Any], seat: int, view: Mapping[str, Any], ply: int) -> str:
    """Marks placed (as many as the die said), by board: "placed 3 marks: board 2 (top
    middle), squares 4 (middle left), 5 (centre) and 6 (middle right)"."""
    marks = [(square_of(b, 3), square_of(s, 3)) for b, s in move["marks"]]
    if not marks:
        raise ValueError(marks)
    boards: dict[int, list[int]] = {}
    for board, square in marks:
        boards.setdefault(board, []).append(square)
    parts = []
    for board, squares in boards.items():
        named = and_list([f"{s} ({place(s, 3)})" for s in squares])
        parts.append(f"board {board} ({place(board, 3)}), square{'s' if len(squares) > 1 else ''} {named}")
    count = f"{len(marks)} mark{'s' if len(marks) != 1 else ''}"
    return f"placed {count}: " + "; ".join(parts)
