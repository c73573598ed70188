"""T-Tic-T-Tac-Toe's house rules in words, and its presets (the two official versions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import results
from ...base import Preset
from ...words import and_list, letter_of, square_of, square_words
from ..classic.describe import letters_and_first

PRESETS: tuple[Preset, ...] = (
    Preset("t-tic-t-tac-toe-1", "t-tic-t-tac-toe", "T-Tic-T-Tac-Toe: Version 1.0",
           "Official rules, Version 1.0 (the Berlin Wall)", {"version": "1.0"}),
    Preset("t-tic-t-tac-toe-2", "t-tic-t-tac-toe", "T-Tic-T-Tac-Toe: Version 2.0",
           "Official rules, Version 2.0", {"version": "2.0"}),
)  # fmt: skip


def describe_rules(options: Mapping[str, Any]) -> list[str]:
    lines = letters_and_first(options, "Official T-Tic-T-Tac-Toe on a 5x5 board.")
    if options["version"] == "1.0":
        lines.append(
            "Version 1.0: a Berlin Wall surrounds the centre square from the start; supers only goosh."
        )
    else:
        lines.append("Version 2.0: the board starts empty; supers goosh and place.")
    if options["bwahs"]:
        lines.append("A player may place the opponent's letter (a bwah); it stands once made.")
    else:
        lines.append("House rule: no bwahs; placing the opponent's letter is refused.")
    if options["confirm_moves"]:
        backs = options["take_backs"]
        lines.append(
            f"Each move waits until its player lifts the pen (confirms); each player may take back "
            f"{_count(backs, 'pending move')} per game."
        )
    return lines


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def describe_result(view: Mapping[str, Any], result: Mapping[str, Any], names: results.Names) -> str:
    """"Lucia (X) wins with three in a row across squares 7, 8 and 9." A draw (the player
    to move has no legal move) keeps the engine's words; the platform's ends, its own."""
    if not results.ended_by_rules(view, result):
        return results.default_sentence(view, result, names)
    line = view.get("winning_line")
    if result.get("result") == "win" and line:
        head = results.headline(result, results.seat_labels(view, names))
        return f"{head} with three in a row {_line_words(line)}."
    return results.default_sentence(view, result, names)


def _line_words(line: list[int]) -> str:
    """On the 5x5 board a line of three is part of a row, column or diagonal: named by its squares."""
    name = results.line_name(line, 5)
    return name if not name.startswith("the ") else f"on {name}"


# -- the move list's words (Variant.describe_move_line) --------------------

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
        a, b = sorted(square_of(int(n), 5) for n in str(segment).split("|"))
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
        return f"the Berlin Wall around {square_words(square_of(move['around'], 5), 5)}"
    return f"the Berlin Wall {_tttt_segments(move['segments'])}"


def _tttt_gooshed(view: Mapping[str, Any], ply: int) -> list[int] | None:
    """The squares the super of move ``ply`` gooshed, from the board's history (None when
    the view does not reach that move, as a replay's earlier step does not)."""
    for event in view.get("history") or ():
        if event.get("ply") == ply and event.get("kind") == "super":
            return [int(s) for s in event.get("gooshed") or ()]
    return None


def move_line(move: Mapping[str, Any], seat: int, view: Mapping[str, Any], ply: int) -> str:
    """The Official T-Tic-T-Tac-Toe Rules' words: place a letter (the other player's is a
    bwah, 6.01), an Iron Curtain, a Berlin Wall, a super that gooshes (and in Version 2.0
    fills), wire cutters and Ronald Reagan, a Checkpoint Charlie, the pen."""
    action = move["action"]
    own = letter_of(view, "symbols", seat)
    other = letter_of(view, "symbols", 1 - seat)
    if action == "place":
        square = square_words(square_of(move["square"], 5), 5)
        letter = move.get("symbol") or own
        if letter != own:
            return f"wrote the other player's letter, {letter}, on {square}: a bwah (rule 6.01)"
        return f"placed {letter} on {square}"
    if action == "super":
        corner = square_of(move["square"], 5)
        squares = [corner, corner + 1, corner + 5, corner + 6]
        if corner % 5 == 0 or corner > 20:
            raise ValueError(corner)
        row, column = divmod(corner - 1, 5)
        words = (f"super over squares {and_list([str(s) for s in squares])} "
                 f"(rows {row + 1}\u2013{row + 2}, columns {column + 1}\u2013{column + 2})")
        fills = view.get("version") == "2.0"  # Version 2.0's super writes its owner's letter too
        gooshed = _tttt_gooshed(view, ply)
        if gooshed is None:  # a replay's earlier step: what it did is not known yet
            return words + f": gooshing {other}'s letters in it" + (f", writing {own} on its empty squares" if fills else "")
        words += f": gooshed {other} on {and_list([str(s) for s in gooshed])}" if gooshed else ": nothing to goosh"
        return words + (f"; {own} written on its empty squares" if fills else "")
    if action == "curtain":
        return f"Iron Curtain on {_tttt_line(move['line'])}"
    if action == "wall":
        if "around" in move:
            return f"Berlin Wall around {square_words(square_of(move['around'], 5), 5)}"
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
