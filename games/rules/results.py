"""A finished game's result in one sentence a person reads. Pure Python.

``Variant.describe_result(view, result, names)`` (games/rules/base.py) builds it from the
final view and the stored result dict (``{"result", "winner", "scores", "reason"}``, as the
API sends it). Two kinds of end:

- by the rules: the view's own ``outcome`` is the stored result. Each variant says how
  (its ``describe.describe_result``: which line, which round, which boards scored); the
  default is the headline and the engine's reason.
- by the platform: a resignation, a time-out, a no-show, an abandoned game, a forfeit,
  a call-off (aborted, declined, never accepted) or an arbiter's correction. The stored
  reason is the platform's sentence ("Player 2 resigned."): the players' names go in.

``names`` are the players' names by seat, where the page knows them (None for an open
seat): "Lucia (X) wins", "Sam resigned". Without them, "Player One (X) wins".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

SEAT_WORDS = ("Player One", "Player Two")
CORRECTED = "Result corrected by the arbiter: "

Names = Sequence[str | None] | None


def with_names(reason: str, names: Mapping[int, str]) -> str:
    """A stored platform reason ("Player 2 resigned.") with the players' names (seat
    number -> name), as the notices and the game page say it."""
    for number, name in names.items():
        reason = reason.replace(f"Player {number + 1}", name)
    return reason


def letter_of(view: Mapping[str, Any], seat: int) -> str:
    """The letter (or mark) ``seat`` plays, from the view ("" where there is none)."""
    for key in ("symbols", "marks", "letters"):
        letters = view.get(key)
        if isinstance(letters, list) and len(letters) == 2:
            return str(letters[seat])
    return ""


def seat_names(names: Names) -> list[str]:
    """Each seat's name: the player's where known, else "Player One" / "Player Two"."""
    given = list(names or [None, None]) + [None, None]
    return [given[seat] or SEAT_WORDS[seat] for seat in (0, 1)]


def seat_labels(view: Mapping[str, Any], names: Names) -> list[str]:
    """Each seat as a result names it: "Lucia (X)", "Player Two (O)", "Sam"."""
    labels = []
    for seat, name in enumerate(seat_names(names)):
        letter = letter_of(view, seat)
        labels.append(f"{name} ({letter})" if letter else name)
    return labels


def headline(result: Mapping[str, Any], labels: Sequence[str]) -> str:
    """Who won, with the points where they are counted, winner's first: "Lucia (O) wins
    19-2", "Draw, 12-12", "Tie game", "Called off"."""
    kind = result.get("result")
    scores = result.get("scores")
    winner = result.get("winner")
    if kind == "win" and winner in (0, 1):
        text = f"{labels[winner]} wins"
        if scores:
            text += f" {scores[winner]}-{scores[1 - winner]}"
        return text
    text = {"draw": "Draw", "tie": "Tie game", "aborted": "Called off"}.get(str(kind), str(kind).capitalize())
    if scores:
        text += f", {scores[0]}-{scores[1]}"
    return text


def ended_by_rules(view: Mapping[str, Any], result: Mapping[str, Any]) -> bool:
    """Whether the game ended on the board: the final view's outcome is the stored result
    (a resignation, time-out or correction leaves a different one, or none)."""
    outcome = view.get("outcome")
    if not outcome:
        return False
    return all(outcome.get(key) == result.get(key) for key in ("result", "winner", "reason"))


def after_colon(text: str, names: Names) -> str:
    """``text`` (a sentence of its own) to follow a colon: its first letter small, unless
    it begins with a player's name or a letter ("Lucia (X) has nowhere left ...")."""
    keep = (*seat_names(names), *SEAT_WORDS, "X ", "O ")
    if not text or text.startswith(keep):
        return text
    return text[0].lower() + text[1:]


def platform_sentence(result: Mapping[str, Any], labels: Sequence[str], names: Names) -> str:
    """A game the platform ended: the headline, then its reason with the players' names."""
    reason = (result.get("reason") or "").strip()
    named = with_names(reason, dict(enumerate(seat_names(names))))
    if result.get("result") == "aborted":
        # A call-off's reason says it all: "Aborted before the first move.", "Sam declined the challenge."
        if not named:
            return "Called off."
        return named if named.startswith("Aborted") else f"Called off: {after_colon(named, names)}"
    head = headline(result, labels)
    if named.startswith(CORRECTED):
        why = named[len(CORRECTED):].rstrip(".")
        return f"{head} (the arbiter corrected the result: {why})."
    if not named:
        return f"{head}."
    return f"{head}: {after_colon(named.replace(': ', ', '), names)}"


def rules_reason(view: Mapping[str, Any], result: Mapping[str, Any], names: Names) -> str:
    """The engine's reason with each "Player One" / "Player Two" as the result names the
    player: name and letter ("Sam (X) has three in a row."), the seat alone telling a
    player nothing about which side of the board was theirs."""
    reason = str(result.get("reason") or "")
    for seat, label in enumerate(seat_labels(view, names)):
        letter = letter_of(view, seat)
        # A reason giving the letter already ("Player One (X) has nowhere left ...") keeps one.
        said = rf"{SEAT_WORDS[seat]}(?: \({re.escape(letter)}\))?" if letter else SEAT_WORDS[seat]
        reason = re.sub(said, label.replace("\\", r"\\"), reason)
    return reason


def default_sentence(view: Mapping[str, Any], result: Mapping[str, Any], names: Names) -> str:
    """The sentence where the variant adds nothing: the headline and the engine's reason."""
    labels = seat_labels(view, names)
    if not ended_by_rules(view, result):
        return platform_sentence(result, labels, names)
    reason = rules_reason(view, result, names)
    head = headline(result, labels)
    if not reason:
        return f"{head}."
    return f"{head}: {after_colon(reason, names)}"


# -- naming the lines of a square grid -------------------------------------------------------

_THREE_ROWS = ("top row", "middle row", "bottom row")
_THREE_COLUMNS = ("left column", "middle column", "right column")


def line_name(squares: Sequence[int], size: int) -> str:
    """The line through ``squares`` (numbered 1.. from the upper left, row by row) on a
    ``size`` x ``size`` grid: "the top row", "the left column", "the diagonal from the top
    left"; a part of a longer line by its way and squares: "across through squares 7, 8 and 9"."""
    cells = sorted(squares)
    rows = {(n - 1) // size for n in cells}
    cols = {(n - 1) % size for n in cells}
    whole = len(cells) == size
    if whole and len(rows) == 1:
        row = rows.pop()
        return f"the {_THREE_ROWS[row]}" if size == 3 else f"row {row + 1}"
    if whole and len(cols) == 1:
        col = cols.pop()
        return f"the {_THREE_COLUMNS[col]}" if size == 3 else f"column {col + 1}"
    if whole and cells == [1 + i * (size + 1) for i in range(size)]:
        return "the diagonal from the top left"
    if whole and cells == [size + i * (size - 1) for i in range(size)]:
        return "the diagonal from the top right"
    way = "across" if len(rows) == 1 else "down" if len(cols) == 1 else "diagonally"
    return f"{way} through squares {and_list(cells)}"


def and_list(items: Sequence[Any]) -> str:
    """"1", "1 and 5", "1, 5 and 9"."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


#: The eight lines of a 3x3 grid, squares numbered 1..9.
LINES_OF_THREE: tuple[tuple[int, int, int], ...] = (
    (1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7),
)  # fmt: skip


def lines_held(board: Sequence[str | None], letter: str) -> list[tuple[int, int, int]]:
    """The lines of a 3x3 ``board`` (nine marks or None) that ``letter`` holds entirely."""
    return [line for line in LINES_OF_THREE if all(board[n - 1] == letter for n in line)]
