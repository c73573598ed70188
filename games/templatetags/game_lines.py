"""What a line says to whoever reads it: a line of the lobby (templates/games/lobby.html)
and a line of a game's move list (templates/games/game.html, on the game page and the
replay): ``{% load game_lines %}``.

A move-list line says what the move did in the words of its variant's rule text, after
the mover's name and letter ("Mei (O): placed O on square 14 (row 3, column 4)"): which
square, by its number and its place on the board (what a player can see on a board
without numbers: "the centre", "row 3, column 4"), and for a move that moves letters
(Tic Tac Two's Swap and Shift, a Wall toppled), from where to where. The engine's
``describe_move`` stays the short notation of the list of legal moves, which the lessons
quote (docs/game-page.md, "The moves list").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from typing import Any

from django import template

from ..models import Game

register = template.Library()


@register.filter
def seated(game: Game, user: Any) -> bool:
    """Whether ``user`` holds a seat of ``game`` (its seats prefetched, as the lobby's
    are): their own game in play is theirs to play, not to watch."""
    if not getattr(user, "is_authenticated", False):
        return False
    return any(seat.user_id == user.pk for seat in game.seats.all())


# -- the move list ------------------------------------------------------------------------

#: The nine squares of a 3x3 board by their place, as the lessons and the rule texts say it.
PLACES_3 = ("top left", "top middle", "top right", "middle left", "centre", "middle right",
            "bottom left", "bottom middle", "bottom right")


def place(square: int, size: int) -> str:
    """Where square ``square`` (1 from the top left, row by row) is on a ``size`` board."""
    if size == 3:
        return PLACES_3[square - 1]
    row, column = divmod(square - 1, size)
    return f"row {row + 1}, column {column + 1}"


def square_words(square: int, size: int) -> str:
    """"square 5 (centre)", "square 14 (row 3, column 4)"."""
    return f"square {square} ({place(square, size)})"


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _square(value: Any, size: int) -> int:
    """A square number of a ``size`` board, or ValueError (a move is data, not trusted)."""
    if type(value) is not int or not 1 <= value <= size * size:
        raise ValueError(value)
    return value


def _letter(view: Mapping[str, Any], key: str, seat: int) -> str:
    letters = view.get(key) or ("X", "O")
    return str(letters[seat])


def classic_line(move: Mapping[str, Any], seat: int, view: Mapping[str, Any]) -> str:
    """"Player One places an X in a space": placed X in square 5 (centre)."""
    return f"placed {'XO'[seat]} in {square_words(_square(move['cell'], 3), 3)}"


#: What became of a planned square in its pair (the rounds' ``results``), in the text's words.
PLAN_RESULTS = {"placed": "placed", "bounced": "bounced out", "invalid": "invalid (taken already)"}


def tactic_toe_line(move: Mapping[str, Any], seat: int, view: Mapping[str, Any], ply: int) -> str:
    """A plan of three, in order, and once its round is revealed what each became:
    "round 1 plan: square 2 (top middle), bounced out; then 3 (top right), placed; ..."."""
    plan = [_square(s, 3) for s in move["plan"]]
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


def nine_square_line(move: Mapping[str, Any], seat: int, view: Mapping[str, Any]) -> str:
    """Marks placed (as many as the die said), by board: "placed 3 marks: board 2 (top
    middle), squares 4 (middle left), 5 (centre) and 6 (middle right)"."""
    marks = [(_square(b, 3), _square(s, 3)) for b, s in move["marks"]]
    if not marks:
        raise ValueError(marks)
    boards: dict[int, list[int]] = {}
    for board, square in marks:
        boards.setdefault(board, []).append(square)
    parts = []
    for board, squares in boards.items():
        named = _and([f"{s} ({place(s, 3)})" for s in squares])
        parts.append(f"board {board} ({place(board, 3)}), square{'s' if len(squares) > 1 else ''} {named}")
    count = f"{len(marks)} mark{'s' if len(marks) != 1 else ''}"
    return f"placed {count}: " + "; ".join(parts)


# T-Tic-T-Tac-Toe: a 5x5 board, blockages on its inner lines.


def _tttt_line(line: Any) -> str:
    """Inner line "h3" (across, under row 3) or "v2" (down, right of column 2) in words."""
    if not isinstance(line, str) or len(line) != 2 or line[0] not in "hv" or line[1] not in "1234":
        raise ValueError(line)
    k = int(line[1])
    return f"the line between {'rows' if line[0] == 'h' else 'columns'} {k} and {k + 1}"


def _tttt_segments(segments: Any) -> str:
    """A straight Berlin Wall's two unit segments ("17|22", "18|23") in words: the line it
    stands on and the squares it separates."""
    pairs = []
    for segment in segments:
        a, b = sorted(_square(int(n), 5) for n in str(segment).split("|"))
        pairs.append((a, b))
    if len(pairs) != 2:
        raise ValueError(segments)
    pairs.sort()
    (a1, b1), (a2, b2) = pairs
    if b1 - a1 == 5:  # one above the other: the wall lies across, between two rows
        line = f"the line between rows {(a1 - 1) // 5 + 1} and {(a1 - 1) // 5 + 2}"
    elif b1 - a1 == 1:
        line = f"the line between columns {(a1 - 1) % 5 + 1} and {(a1 - 1) % 5 + 2}"
    else:
        raise ValueError(segments)
    return f"separating squares {a1}, {a2} from {b1}, {b2}, on {line}"


def _tttt_blockage(move: Mapping[str, Any]) -> str:
    """The blockage a move names: by its line (an Iron Curtain), the square it surrounds or
    its two segments (a Berlin Wall)."""
    if "line" in move:
        return f"the Iron Curtain on {_tttt_line(move['line'])}"
    if "around" in move:
        return f"the Berlin Wall around {square_words(_square(move['around'], 5), 5)}"
    return f"the Berlin Wall {_tttt_segments(move['segments'])}"


def _tttt_gooshed(view: Mapping[str, Any], ply: int) -> list[int] | None:
    """The squares the super of move ``ply`` gooshed, from the board's history (None when
    the view does not reach that move, as a replay's earlier step does not)."""
    for event in view.get("history") or ():
        if event.get("ply") == ply and event.get("kind") == "super":
            return [int(s) for s in event.get("gooshed") or ()]
    return None


def tttt_line(move: Mapping[str, Any], seat: int, view: Mapping[str, Any], ply: int) -> str:
    """The Official T-Tic-T-Tac-Toe Rules' words: place a letter (the other player's is a
    bwah, 6.01), an Iron Curtain, a Berlin Wall, a super that gooshes (and in Version 2.0
    fills), wire cutters and Ronald Reagan, a Checkpoint Charlie, the pen."""
    action = move["action"]
    own = _letter(view, "symbols", seat)
    other = _letter(view, "symbols", 1 - seat)
    if action == "place":
        square = square_words(_square(move["square"], 5), 5)
        letter = move.get("symbol") or own
        if letter != own:
            return f"wrote the other player's letter, {letter}, on {square}: a bwah (rule 6.01)"
        return f"placed {letter} on {square}"
    if action == "super":
        corner = _square(move["square"], 5)
        squares = [corner, corner + 1, corner + 5, corner + 6]
        if corner % 5 == 0 or corner > 20:
            raise ValueError(corner)
        row, column = divmod(corner - 1, 5)
        words = (f"super over squares {_and([str(s) for s in squares])} "
                 f"(rows {row + 1}\u2013{row + 2}, columns {column + 1}\u2013{column + 2})")
        fills = view.get("version") == "2.0"  # Version 2.0's super writes its owner's letter too
        gooshed = _tttt_gooshed(view, ply)
        if gooshed is None:  # a replay's earlier step: what it did is not known yet
            return words + f": gooshing {other}'s letters in it" + (f", writing {own} on its empty squares" if fills else "")
        words += f": gooshed {other} on {_and([str(s) for s in gooshed])}" if gooshed else ": nothing to goosh"
        return words + (f"; {own} written on its empty squares" if fills else "")
    if action == "curtain":
        return f"Iron Curtain on {_tttt_line(move['line'])}"
    if action == "wall":
        if "around" in move:
            return f"Berlin Wall around {square_words(_square(move['around'], 5), 5)}"
        return f"Berlin Wall {_tttt_segments(move['segments'])}"
    if action == "snip":
        return f"wire cutters: snipped {_tttt_blockage(move)}"
    if action == "tear-down":
        return f"Ronald Reagan: tore down {_tttt_blockage(move)}"
    if action == "checkpoint":
        return f"Checkpoint Charlie on {_tttt_blockage(move)}: two more full turns of protection"
    if action == "confirm":
        return "lifted the pen: the move stands"
    if action == "take-back":
        return "took the move back (the pen was still on the paper)"
    raise ValueError(action)


# Tic Tac Two: a 4x4 grid, a draft of special actions, Walls on the borders.

T2_CARDS = {"double": "Double", "swap": "Swap", "shift": "Shift", "dibs": "Dibs Space",
            "intersect": "Intersect Space", "wall": "Wall"}
#: Where the square across a side is: (rows, columns) to move.
T2_SIDES = {"top": (-1, 0), "bottom": (1, 0), "left": (0, -1), "right": (0, 1)}


def _t2_neighbour(square: int, side: Any) -> int | None:
    """The square across ``side`` of ``square``; None off the grid (an edge)."""
    if side not in T2_SIDES:
        raise ValueError(side)
    row, column = divmod(square - 1, 4)
    dr, dc = T2_SIDES[side]
    if not (0 <= row + dr < 4 and 0 <= column + dc < 4):
        return None
    return (row + dr) * 4 + column + dc + 1


def _t2_border(square: int, side: str) -> str:
    """A Wall's border in words: "between squares 7 and 8 (row 2, between columns 3 and
    4)", "on the left edge of square 5 (row 2, column 1)"."""
    across = _t2_neighbour(square, side)
    if across is None:
        return f"on the {side} edge of {square_words(square, 4)}"
    a, b = sorted((square, across))
    row, column = divmod(a - 1, 4)
    if b - a == 1:
        return f"between squares {a} and {b} (row {row + 1}, between columns {column + 1} and {column + 2})"
    return f"between squares {a} and {b} (column {column + 1}, between rows {row + 1} and {row + 2})"


def _t2_shift(move: Mapping[str, Any]) -> str:
    """A Shift from where to where: "column 1 down one square: 1 to 5, 5 to 9, 9 to 13, and
    13 round to 1"."""
    line, index, direction = move["line"], move["index"], move["direction"]
    if type(index) is not int or not 1 <= index <= 4:
        raise ValueError(index)
    if line == "row" and direction in ("left", "right"):
        squares = [(index - 1) * 4 + c for c in range(1, 5)]
    elif line == "column" and direction in ("up", "down"):
        squares = [index + 4 * r for r in range(4)]
    else:
        raise ValueError(move)
    if direction in ("left", "up"):
        squares.reverse()
    steps = [f"{a} to {b}" for a, b in pairwise(squares)]
    return (f"Shift: {line} {index} {direction} one square: " + ", ".join(steps)
            + f", and {squares[-1]} round to {squares[0]}")


def tic_tac_two_line(move: Mapping[str, Any], seat: int, view: Mapping[str, Any]) -> str:
    """"The sequel Tic Tac Toe needed"'s words: cards taken in the draft, letters written,
    and each special action with what it moved."""
    kind = move["type"]
    own = _letter(view, "letters", seat)
    if kind == "pick":  # a draft pick: no square, and as the action list names it
        return f"pick {T2_CARDS[move['action']]}"
    if kind == "swap":
        a, b = sorted(_square(s, 4) for s in move["cells"])
        return (f"Swap: {square_words(a, 4)} and {square_words(b, 4)} traded places "
                f"(what was on {a} went to {b}, and what was on {b} to {a})")
    if kind == "shift":
        return _t2_shift(move)
    square = _square(move["cell"], 4)
    if kind == "write":
        return f"wrote {own} on {square_words(square, 4)}"
    if kind == "double":
        return f"Double: an extra {own} on {square_words(square, 4)}"
    if kind == "void":
        return f"placed the Void on {square_words(square, 4)}"
    if kind == "dibs":
        return f"Dibs Space on {square_words(square, 4)}"
    if kind == "intersect":
        return f"Intersect Space on {square_words(square, 4)}"
    if kind == "wall":
        return f"Wall {_t2_border(square, move['side'])}"
    if kind == "topple":
        # Named by the square it falls onto and the side of that square it stood on.
        across = _t2_neighbour(square, move["side"])
        stood = (f"the border between squares {min(square, across)} and {max(square, across)}"
                 if across is not None else f"the {move['side']} edge of square {square}")
        return f"toppled their Wall from {stood} onto {square_words(square, 4)}, erasing what was on it"
    raise ValueError(kind)


#: Each variant's move-list line: (move, seat, view, ply) -> words. A variant without one
#: (rock-paper-scissors) keeps the engine's notation.
LINES: dict[str, Callable[[Mapping[str, Any], int, Mapping[str, Any], int], str]] = {
    "classic": lambda move, seat, view, ply: classic_line(move, seat, view),
    "tactic-toe": tactic_toe_line,
    "nine-square": lambda move, seat, view, ply: nine_square_line(move, seat, view),
    "t-tic-t-tac-toe": tttt_line,
    "tic-tac-two": lambda move, seat, view, ply: tic_tac_two_line(move, seat, view),
}


def move_words(variant: str, entry: Mapping[str, Any], view: Mapping[str, Any] | None) -> str:
    """What move ``entry`` of the game's move list (``selectors.game_payload``'s moves: its
    ``seat``, ``ply``, and ``move`` and ``notation`` when the viewer may see it) did, in
    its variant's words; "" for a move the viewer may not see (a plan before its reveal).
    ``view``: the board's view (T-Tic-T-Tac-Toe's letters and history, Tactic-Toe's
    revealed rounds). A move the words cannot read (never stored, but data) keeps the
    engine's notation."""
    if "move" not in entry:
        return ""
    line = LINES.get(variant)
    move = entry["move"]
    if line is not None and isinstance(move, Mapping) and entry.get("seat") in (0, 1):
        try:
            return line(move, int(entry["seat"]), view or {}, int(entry.get("ply") or 0))
        except (KeyError, TypeError, ValueError, IndexError):
            pass
    return str(entry.get("notation") or move)


@register.simple_tag
def move_line(entry: Mapping[str, Any], variant: str, view: Mapping[str, Any] | None = None) -> str:
    """``{% move_line m payload.variant view %}``: the move list's words for move ``m``."""
    return move_words(variant, entry, view)

