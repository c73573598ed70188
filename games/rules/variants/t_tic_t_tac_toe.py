"""Official T-Tic-T-Tac-Toe (seed text 001): one 5x5 game, Version 1.0 or 2.0.

The Variant is a single 5x5 game. The five-game match around it (rock-paper-scissors,
the classic game that decides X and the version, five games all played, the loser
going first) is :class:`games.rules.variants.ttt5.match.TTTMatch`.

A turn is exactly one of: place a symbol, place a blockage (Iron Curtain or Berlin
Wall), use a super, snip an Iron Curtain, tear down a Berlin Wall, or put a Checkpoint
Charlie on a blockage. Geometry (what blocks a three in a row) lives in
``ttt5.geometry``; docs/rules/t-tic-t-tac-toe.md explains every decision.

Move notation (JSON; squares 1..25 from the upper left, row by row)::

    {"action": "place", "square": 13}                    # your symbol on 13
    {"action": "place", "square": 13, "symbol": "O"}     # naming the letter (a bwah if not yours)
    {"action": "curtain", "line": "h2"}                  # Iron Curtain on line h2
    {"action": "wall", "segments": ["8|13", "9|14"]}     # straight Berlin Wall
    {"action": "wall", "around": 7}                      # Berlin Wall around square 7
    {"action": "super", "square": 7}                     # super on 7, 8, 12, 13
    {"action": "snip", "line": "h2"}                     # wire cutters on a curtain
    {"action": "tear-down", "around": 13}                # Ronald Reagan on a wall
    {"action": "checkpoint", "line": "h2"}               # Checkpoint Charlie on a blockage
    {"action": "confirm"} / {"action": "take-back"}      # with the confirm_moves house rule
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any

from ..base import Move, Outcome, Seat, State, Variant, Viewer, require_int, require_mapping, require_seat
from ..chance import normalise_seed
from ..errors import RuleError
from .ttt5 import geometry as geo
from .ttt5.match import TTTMatch

__all__ = ["TTTMatch", "TTTState", "TTicTTacToe", "move_of", "parse_move"]

LETTERS = ("X", "O")
VERSIONS = ("1.0", "2.0")
#: Moves after a blockage's placement during which it cannot be destroyed: two full turns.
PROTECTION = 4
WIRE_CUTTERS = 1001  # 4.04(e)
RONALD_REAGANS = 420  # 4.05(g)
#: The specials each player has once per game.
SPECIALS = ("curtain", "wall", "super", "checkpoint")
CENTRE = 13

REDRAW_REASONS = {
    "super": "7.01(a) a super was used",
    "snip": "7.01(c) an Iron Curtain was snipped",
    "tear-down": "7.01(d) a Berlin Wall was torn down",
    "checkpoint-gone": "7.01(e) a Checkpoint Charlie disappeared",
}

# An action is the parsed, canonical form of a move:
#   ("place", square, letter) ("curtain", line) ("wall", name) ("super", corner)
#   ("snip", name) ("tear-down", name) ("checkpoint", name) ("confirm",) ("take-back",)
Action = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Blockage:
    """A standing Iron Curtain or Berlin Wall.

    ``name`` identifies it: the line ("h2") for a curtain, the two segments
    ("8|13+9|14") or "around 13" for a wall. ``owner`` is None for the board drawer's
    wall of Version 1.0. It cannot be destroyed up to and including move number
    ``protected_until`` (moves are numbered from 1 within the game).
    """

    kind: str
    name: str
    owner: Seat | None
    mask: int
    placed_at: int
    protected_until: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "owner": self.owner,
            "segments": [geo.SEGMENT_NAMES[s] for s in geo.segments_of(self.mask)],
            "placed_at": self.placed_at,
            "protected_until": self.protected_until,
        }


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A Checkpoint Charlie on blockage ``target``; it disappears once move ``ends_at`` is played."""

    owner: Seat
    target: str
    placed_at: int
    ends_at: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "owner": self.owner,
            "target": self.target,
            "placed_at": self.placed_at,
            "ends_at": self.ends_at,
        }


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the board's history. ``redraw`` names the rule 7.01 reason, if any."""

    ply: int
    seat: Seat | None
    kind: str
    text: str
    redraw: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "seat": self.seat,
            "kind": self.kind,
            "text": self.text,
            "redraw": self.redraw,
        }


_FIELDS = (
    "version", "symbols", "first", "confirm_moves", "bwahs", "take_back_limit", "seed", "cells", "ply",
    "to_move", "blockages", "checkpoints", "spent", "wire_cutters", "ronald_reagans", "take_backs",
    "pending", "history", "outcome", "winning_line",
)  # fmt: skip
_INDEX = {name: i for i, name in enumerate(_FIELDS)}


class TTTState(State, tuple):
    """One 5x5 game: an immutable tuple of the fields below (a tuple: cheap to copy).

    ``cells[i]`` holds square i+1's letter or None; ``ply`` counts the moves made
    (confirmed) so far; ``spent`` lists the specials each seat has used; ``pending`` is
    the action awaiting confirmation (confirm_moves house rule).
    """

    __slots__ = ()

    version: str = property(itemgetter(0))  # type: ignore[assignment]
    symbols: tuple[str, str] = property(itemgetter(1))  # type: ignore[assignment]
    first: Seat = property(itemgetter(2))  # type: ignore[assignment]
    confirm_moves: bool = property(itemgetter(3))  # type: ignore[assignment]
    bwahs: bool = property(itemgetter(4))  # type: ignore[assignment]
    take_back_limit: int = property(itemgetter(5))  # type: ignore[assignment]
    seed: str = property(itemgetter(6))  # type: ignore[assignment]
    cells: tuple[str | None, ...] = property(itemgetter(7))  # type: ignore[assignment]
    ply: int = property(itemgetter(8))  # type: ignore[assignment]
    to_move: tuple[Seat, ...] = property(itemgetter(9))  # type: ignore[assignment]
    blockages: tuple[Blockage, ...] = property(itemgetter(10))  # type: ignore[assignment]
    checkpoints: tuple[Checkpoint, ...] = property(itemgetter(11))  # type: ignore[assignment]
    spent: tuple[tuple[str, ...], tuple[str, ...]] = property(itemgetter(12))  # type: ignore[assignment]
    wire_cutters: int = property(itemgetter(13))  # type: ignore[assignment]
    ronald_reagans: int = property(itemgetter(14))  # type: ignore[assignment]
    take_backs: tuple[int, int] = property(itemgetter(15))  # type: ignore[assignment]
    pending: Action | None = property(itemgetter(16))  # type: ignore[assignment]
    history: tuple[Event, ...] = property(itemgetter(17))  # type: ignore[assignment]
    outcome: Outcome | None = property(itemgetter(18))  # type: ignore[assignment]
    winning_line: tuple[int, int, int] | None = property(itemgetter(19))  # type: ignore[assignment]

    def __new__(cls, **fields: Any) -> TTTState:
        fields.setdefault("winning_line", None)
        return tuple.__new__(cls, tuple(fields[name] for name in _FIELDS))

    def _replace(self, **changes: Any) -> TTTState:
        values = list(self)
        for name, value in changes.items():
            values[_INDEX[name]] = value
        return tuple.__new__(TTTState, values)

    @property
    def blocked(self) -> int:
        """Every blocked unit segment, as a bitmask."""
        return _blocked(self.blockages)

    def __repr__(self) -> str:
        return f"TTTState(ply={self.ply}, to_move={self.to_move}, cells={self.cells})"


@dataclass(frozen=True, slots=True)
class _Effect:
    """What a legal action does to the board, before the turn passes."""

    cells: tuple[str | None, ...]
    blockages: tuple[Blockage, ...]
    checkpoints: tuple[Checkpoint, ...]
    spent: tuple[tuple[str, ...], tuple[str, ...]]
    wire_cutters: int
    ronald_reagans: int
    event: Event


# -- names of blockages -------------------------------------------------------------------


def straight_wall_name(segments: tuple[int, int]) -> str:
    a, b = sorted(segments)
    return f"{geo.SEGMENT_NAMES[a]}+{geo.SEGMENT_NAMES[b]}"


#: Every Berlin Wall a player may draw: name -> segment mask.
WALLS: dict[str, int] = {
    **{straight_wall_name(pair): geo.mask_of(list(pair)) for pair in geo.STRAIGHT_WALLS},
    **{f"around {s}": geo.AROUND_MASK[s] for s in geo.SQUARES},
}


def target_fields(name: str) -> dict[str, Any]:
    """The move fields naming blockage ``name``: {"line": ..}, {"segments": [..]} or {"around": n}."""
    if name in geo.LINE_MASK:
        return {"line": name}
    if name.startswith("around "):
        return {"around": int(name.split()[1])}
    return {"segments": name.split("+")}


def move_of(action: Action) -> Move:
    """The canonical JSON move of an action."""
    kind = action[0]
    if kind == "place":
        return (
            {"action": "place", "square": action[1]}
            if action[2] is None
            else {"action": "place", "square": action[1], "symbol": action[2]}
        )
    if kind == "super":
        return {"action": "super", "square": action[1]}
    if kind in ("confirm", "take-back"):
        return {"action": kind}
    return {"action": kind, **target_fields(action[1])}


# -- parsing untrusted moves --------------------------------------------------------------

_TARGET_KEYS = ("line", "segments", "around")
ACTIONS = ("place", "curtain", "wall", "super", "snip", "tear-down", "checkpoint", "confirm", "take-back")


def _malformed(message: str) -> RuleError:
    return RuleError("malformed-move", message)


def _parse_square(value: Any) -> int:
    return require_int(value, 1, 25, "square")


def _parse_segment(value: Any) -> int:
    found = re.fullmatch(r"(\d{1,2})\|(\d{1,2})", value, re.ASCII) if isinstance(value, str) else None
    if found is None:
        raise _malformed('A unit segment is named by the two squares it separates, such as "8|13".')
    a, b = int(found.group(1)), int(found.group(2))
    segment = geo.segment_between(a, b) if 1 <= a <= 25 and 1 <= b <= 25 else None
    if segment is None:
        raise RuleError(
            "no-such-segment", f"Squares {a} and {b} do not share a side, so {value!r} is no segment."
        )
    return segment


def _parse_target(move: Mapping[str, Any], allowed: tuple[str, ...], action: str) -> str:
    """The name of the blockage a move names with "line", "segments" or "around"."""
    present = [k for k in _TARGET_KEYS if k in move]
    if len(present) != 1 or present[0] not in allowed:
        example = {"curtain": '"line": "h2"', "snip": '"line": "h2"'}.get(action, '"around": 13')
        raise _malformed(f"Say which {'line' if action == 'curtain' else 'blockage'} with {example}.")
    key = present[0]
    require_mapping(move, ("action", key))
    value = move[key]
    if key == "line":
        if not isinstance(value, str) or value not in geo.LINE_MASK:
            raise RuleError("no-such-line", "The eight inner lines are h1-h4 (across) and v1-v4 (down).")
        return value
    if key == "around":
        return f"around {_parse_square(value)}"
    if not isinstance(value, list) or len(value) != 2:
        raise _malformed('A straight Berlin Wall is two unit segments, such as ["8|13", "9|14"].')
    first, second = _parse_segment(value[0]), _parse_segment(value[1])
    if (first, second) not in geo.STRAIGHT_WALL_SET and (second, first) not in geo.STRAIGHT_WALL_SET:
        raise RuleError(
            "bad-wall",
            "A Berlin Wall is two adjacent unit segments in a straight line on one inner line "
            "(rule 4.05(a)), or all four sides of one square (4.05(b)).",
        )
    return straight_wall_name((first, second))


def parse_move(move: Any) -> Action:
    """The canonical action of an untrusted move; RuleError if it is not well formed."""
    if not isinstance(move, Mapping):
        raise _malformed('A move is an object such as {"action": "place", "square": 13}.')
    action = move.get("action")
    if not isinstance(action, str) or action not in ACTIONS:
        raise _malformed("The action must be one of " + ", ".join(ACTIONS) + ".")
    if action == "place":
        if "symbol" in move:
            require_mapping(move, ("action", "square", "symbol"))
            letter = move["symbol"]
            if not isinstance(letter, str) or letter not in LETTERS:
                raise _malformed('The symbol is "X" or "O".')
        else:
            require_mapping(move, ("action", "square"))
            letter = None
        return ("place", _parse_square(move["square"]), letter)
    if action == "super":
        require_mapping(move, ("action", "square"))
        corner = _parse_square(move["square"])
        if corner not in geo.SUPER_CORNERS:
            raise RuleError(
                "super-off-board",
                f"A super's 2x2 range is named by its upper-left square; from {corner} it would leave the board.",
            )
        return ("super", corner)
    if action in ("confirm", "take-back"):
        require_mapping(move, ("action",))
        return (action,)
    allowed = {
        "curtain": ("line",),
        "wall": ("segments", "around"),
        # Destroying and protecting name any blockage; the wrong tool is refused later.
        "snip": _TARGET_KEYS,
        "tear-down": _TARGET_KEYS,
        "checkpoint": _TARGET_KEYS,
    }[action]
    return (action, _parse_target(move, allowed, action))


def describe(action: Action) -> str:
    kind = action[0]
    if kind == "place":
        return f"{action[2]} on {action[1]}" if action[2] else f"place on {action[1]}"
    if kind == "super":
        return "super on " + ", ".join(str(s) for s in geo.super_range(action[1]))
    if kind == "curtain":
        return f"Iron Curtain on {action[1]}"
    if kind == "wall":
        return f"Berlin Wall {action[1]}"
    if kind == "snip":
        return f"snip the Iron Curtain on {action[1]}"
    if kind == "tear-down":
        return f"tear down the Berlin Wall {action[1]}"
    if kind == "checkpoint":
        return f"Checkpoint Charlie on {action[1]}"
    return {"confirm": "confirm (pen lifted)", "take-back": "take back"}[kind]


# -- the variant ---------------------------------------------------------------------------


class TTicTTacToe(Variant):
    slug = "t-tic-t-tac-toe"
    name = "Official T-Tic-T-Tac-Toe"
    options_schema = {
        "type": "object",
        "properties": {
            "version": {
                "title": "Version",
                "description": (
                    "Version 1.0: a Berlin Wall surrounds the centre square from the start and supers only "
                    "goosh. Version 2.0: an empty board, and supers goosh and place (rule 2.05)."
                ),
                "type": "string",
                "enum": list(VERSIONS),
                "default": "1.0",
            },
            "symbols": {
                "title": "Letters",
                "description": "The letters of Player One and Player Two, kept from the classic game (rule 3.x.01).",
                "type": "array",
                "items": {"type": "string", "enum": list(LETTERS)},
                "minItems": 2,
                "maxItems": 2,
                "default": ["X", "O"],
            },
            "first": {
                "title": "Who goes first",
                "description": "The letter that moves first in this game; O may go first (rule 3.x.01).",
                "type": "string",
                "enum": list(LETTERS),
                "default": "X",
            },
            "confirm_moves": {
                "title": "Confirm moves (pen lifted)",
                "description": (
                    'Each move stays pending until its player sends {"action": "confirm"} (the pen is lifted) '
                    'or takes it back with {"action": "take-back"}: a bwah can be rectified (rule 6.01(b)).'
                ),
                "type": "boolean",
                "default": False,
            },
            "take_backs": {
                "title": "Take-backs per player and game",
                "description": "How many pending moves each player may take back in one game (with confirm_moves).",
                "type": "integer",
                "minimum": 0,
                "maximum": 25,
                "default": 3,
            },
            "bwahs": {
                "title": "Bwahs allowed",
                "description": (
                    "A player may place the opponent's letter (a bwah, rule 6.01(a)); it stands once made. "
                    "Off: placing the opponent's letter is refused."
                ),
                "type": "boolean",
                "default": True,
            },
        },
        "additionalProperties": False,
    }

    def __init__(self) -> None:
        # (state, seat, answer) of the last rule 5.2.02 check: legal_moves asks it once per super.
        self._prevent_cache: tuple[TTTState, Seat, bool] | None = None

    # -- options ------------------------------------------------------------------------

    def check_options(self, options: dict[str, Any]) -> None:
        symbols = options.get("symbols")
        if isinstance(symbols, list) and len(symbols) == 2 and symbols[0] == symbols[1]:
            raise RuleError("bad-options", "The two players need different letters: one X and one O.")

    def new_game(self, options: Mapping[str, Any] | None = None, seed: int | str | None = None) -> TTTState:
        opts = self.validate_options(options)
        symbols = (opts["symbols"][0], opts["symbols"][1])
        first = symbols.index(opts["first"])
        blockages: tuple[Blockage, ...] = ()
        history: tuple[Event, ...] = ()
        if opts["version"] == "1.0":
            # 3.1.02: the board drawer's wall around the centre, protected like any wall.
            blockages = (
                Blockage("wall", f"around {CENTRE}", None, WALLS[f"around {CENTRE}"], 0, PROTECTION),
            )
            history = (Event(0, None, "wall", "the board drawer's Berlin Wall around 13 (rule 3.1.02)"),)
        return TTTState(
            version=opts["version"],
            symbols=symbols,
            first=first,
            confirm_moves=opts["confirm_moves"],
            bwahs=opts["bwahs"],
            take_back_limit=opts["take_backs"],
            seed=normalise_seed(seed),
            cells=(None,) * 25,
            ply=0,
            to_move=(first,),
            blockages=blockages,
            checkpoints=(),
            spent=((), ()),
            wire_cutters=WIRE_CUTTERS,
            ronald_reagans=RONALD_REAGANS,
            take_backs=(0, 0),
            pending=None,
            history=history,
            outcome=None,
        )

    # -- legality -----------------------------------------------------------------------

    def _effect(self, state: TTTState, seat: Seat, action: Action, check_super_rule: bool = True) -> _Effect:
        """What ``action`` by ``seat`` does; RuleError when the rules refuse it."""
        kind = action[0]
        move_number = state.ply + 1
        mine, theirs = state.symbols[seat], state.symbols[1 - seat]
        if state.ply == 0 and kind != "place":
            # 3.1.03 / 3.2.02 / 3.x.06: the first player "can place their symbol"; 4.04, 4.05, 5.1.01(a).
            raise RuleError("first-move-is-a-symbol", "The first move of a game must place a symbol.")
        cells, blockages, checkpoints = state.cells, state.blockages, state.checkpoints
        spent, cutters, reagans = state.spent, state.wire_cutters, state.ronald_reagans
        text = describe(action)
        redraw: str | None = None
        if kind == "place":
            square, letter = action[1], action[2] or mine
            if letter != mine and not state.bwahs:
                raise RuleError(
                    "bwah-not-allowed", f"You play {mine}; placing {letter} (a bwah) is off in this game."
                )
            if cells[square - 1] is not None:
                raise RuleError("square-taken", f"Square {square} already holds {cells[square - 1]}.")
            cells = (*cells[: square - 1], letter, *cells[square:])
            text = f"{letter} on {square}" + (" (a bwah: the opponent's symbol)" if letter != mine else "")
            kind_name = "bwah" if letter != mine else "place"
        elif kind in ("curtain", "wall"):
            special = kind
            if special in spent[seat]:
                what = "Iron Curtain" if kind == "curtain" else "Berlin Wall"
                raise RuleError(f"{kind}-used", f"You have already used your {what} in this game.")
            mask = geo.LINE_MASK[action[1]] if kind == "curtain" else WALLS[action[1]]
            if not mask & ~state.blocked:
                raise RuleError("already-blocked", "Every segment of that blockage is already blocked.")
            blockages = (
                *blockages,
                Blockage(kind, action[1], seat, mask, move_number, move_number + PROTECTION),
            )
            spent = _spend(spent, seat, special)
            kind_name = kind
        elif kind == "super":
            if "super" in spent[seat]:
                raise RuleError("super-used", "You have already used your super in this game.")
            area = geo.super_range(action[1])
            new = list(cells)
            for square in area:
                if new[square - 1] == theirs:
                    new[square - 1] = None  # gooshed (5.x.01(c)); friendly symbols untouched (d)
                elif new[square - 1] is None and state.version == "2.0":
                    new[square - 1] = mine  # 5.2.01(g): empty squares get the player's symbol
            cells = tuple(new)
            winning = state.version == "2.0" and check_super_rule and geo.has_line(cells, state.blocked, mine)
            if winning and not self._super_may_win(state, seat, action[1]):
                raise RuleError(
                    "super-would-win",
                    "A super cannot give you three in a row unless it directly blocks your opponent's win "
                    "and nothing else can (rule 5.2.02).",
                )
            spent = _spend(spent, seat, "super")
            redraw = REDRAW_REASONS["super"]
            kind_name = "super"
        elif kind in ("snip", "tear-down", "checkpoint"):
            target = _find(blockages, action[1])
            if kind == "checkpoint":
                if "checkpoint" in spent[seat]:
                    raise RuleError(
                        "checkpoint-used", "You have already used your Checkpoint Charlie in this game."
                    )
                start = max(target.protected_until, move_number)
                ends = start + PROTECTION
                blockages = tuple(replace(b, protected_until=ends) if b is target else b for b in blockages)
                checkpoints = (*checkpoints, Checkpoint(seat, target.name, move_number, ends))
                spent = _spend(spent, seat, "checkpoint")
                text += f" (protected up to move {ends})"
                kind_name = "checkpoint"
            else:
                wanted = "curtain" if kind == "snip" else "wall"
                if target.kind != wanted:
                    raise RuleError(
                        "wrong-tool",
                        "Wire Cutters snip Iron Curtains; Ronald Reagan tears down Berlin Walls.",
                    )
                if move_number <= target.protected_until:
                    raise RuleError(
                        "still-protected",
                        f"That blockage cannot be destroyed before move {target.protected_until + 1}.",
                    )
                if kind == "snip":
                    if cutters <= 0:  # pragma: no cover - 1,001 pairs never run out in a game
                        raise RuleError("no-wire-cutters", "All 1,001 pairs of Wire Cutters are used.")
                    cutters -= 1
                elif reagans <= 0:  # pragma: no cover - 420 of them never run out in a game
                    raise RuleError("no-ronald-reagans", "All 420 Ronald Reagans are used.")
                else:
                    reagans -= 1
                blockages = tuple(b for b in blockages if b is not target)
                # Only destroying a blockage can open lines for both players at once.
                blocked = _blocked(blockages)
                if geo.has_line(cells, blocked, mine) and geo.has_line(cells, blocked, theirs):
                    raise RuleError(
                        "both-would-win",
                        "That would give both players three in a row at once, which the rules forbid "
                        "(4.04(d), 4.05(f), 3.x.05).",
                    )
                redraw = REDRAW_REASONS[kind]
                kind_name = kind
        else:
            raise RuleError("nothing-pending", "There is no pending move to confirm or take back.")
        event = Event(move_number, seat, kind_name, text, redraw)
        return _Effect(cells, blockages, checkpoints, spent, cutters, reagans, event)

    def _super_may_win(self, state: TTTState, seat: Seat, corner: int) -> bool:
        """Rule 5.2.02's exception: the winning super directly blocks a win nothing else prevents."""
        theirs = state.symbols[1 - seat]
        lines = geo.threats(state.cells, state.blocked, theirs)
        if not lines:
            return False  # no win of the opponent to block
        area = set(geo.super_range(corner))
        if not any(area & set(line) for _, line in lines):
            return False  # it does not *directly* block a threatened line
        return self._nothing_else_prevents(state, seat)

    def _nothing_else_prevents(self, state: TTTState, seat: Seat) -> bool:
        """True when every option but a winning super leaves the opponent a winning placement.

        The answer is the same for every super of one position, so the last one is kept.
        """
        cached = self._prevent_cache
        if cached is not None and cached[0] is state and cached[1] == seat:
            return cached[2]
        theirs, mine = state.symbols[1 - seat], state.symbols[seat]
        answer = True
        for action in self._candidates(state, seat):
            if action[0] == "place" and action[2] not in (None, mine):
                continue  # a bwah is a mistake, not an option
            try:
                effect = self._effect(state, seat, action, check_super_rule=False)
            except RuleError:
                continue
            blocked = _blocked(effect.blockages)
            if geo.has_line(effect.cells, blocked, mine):
                if action[0] == "super":
                    continue  # a winning super is what is being judged, not an "other option"
                answer = False  # winning otherwise also prevents the opponent's win
                break
            if geo.has_line(effect.cells, blocked, theirs):
                continue  # uncovering the opponent's line hands them the win: no defence
            if not geo.threats(effect.cells, blocked, theirs):
                answer = False  # this other option stops every threat
                break
        self._prevent_cache = (state, seat, answer)
        return answer

    def _candidates(self, state: TTTState, seat: Seat) -> Iterator[Action]:
        """Every action that might be legal, cheapest first (not yet checked)."""
        if state.pending is not None:
            yield ("confirm",)
            yield ("take-back",)
            return
        theirs = state.symbols[1 - seat]
        empty = [i + 1 for i, v in enumerate(state.cells) if v is None]
        for square in empty:
            yield ("place", square, None)
        if state.bwahs:
            for square in empty:
                yield ("place", square, theirs)
        if state.ply == 0:
            return
        spent = state.spent[seat]
        blocked = state.blocked
        if "curtain" not in spent:
            for line in geo.LINE_NAMES:
                if geo.LINE_MASK[line] & ~blocked:
                    yield ("curtain", line)
        if "wall" not in spent:
            for name, mask in WALLS.items():
                if mask & ~blocked:
                    yield ("wall", name)
        if "super" not in spent:
            for corner in geo.SUPER_CORNERS:
                yield ("super", corner)
        for blockage in state.blockages:
            if state.ply + 1 > blockage.protected_until:
                yield ("snip" if blockage.kind == "curtain" else "tear-down", blockage.name)
        if "checkpoint" not in spent:
            for blockage in state.blockages:
                yield ("checkpoint", blockage.name)

    def _legal_actions(self, state: TTTState, seat: Seat) -> Iterator[Action]:
        if state.outcome is not None or seat not in state.to_move:
            return
        for action in self._candidates(state, seat):
            if action[0] == "take-back":
                if state.take_backs[seat] < state.take_back_limit:
                    yield action
                continue
            if action[0] in ("place", "curtain", "wall", "checkpoint", "confirm"):
                yield action  # the candidates list only these when they are legal
                continue
            try:
                self._effect(state, seat, action)
            except RuleError:
                continue
            yield action

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        assert isinstance(state, TTTState)
        return [move_of(action) for action in self._legal_actions(state, seat)]

    def candidate_actions(self, state: TTTState, seat: Seat) -> Iterator[Action]:
        """Actions that may be legal (unchecked); for the AI's quick scans."""
        if state.outcome is not None or seat not in state.to_move:
            return iter(())
        return self._candidates(state, seat)

    def legal_actions(self, state: TTTState, seat: Seat) -> list[Action]:
        """legal_moves as parsed actions (for the AI)."""
        return list(self._legal_actions(state, seat))

    # -- playing -------------------------------------------------------------------------

    def apply(self, state: State, seat: Seat, move: Any) -> TTTState:
        assert isinstance(state, TTTState)
        if state.outcome is not None:
            raise RuleError("game-over", "The game is over; no more moves can be made.")
        require_seat(seat)
        if seat not in state.to_move:
            raise RuleError("not-your-turn", "It is not your turn.")
        action = parse_move(move)
        return self.apply_action(state, seat, action)

    def apply_action(self, state: TTTState, seat: Seat, action: Action) -> TTTState:
        """apply() for an already parsed action (the AI's fast path)."""
        if state.pending is not None:
            if action[0] == "confirm":
                return self._commit(state, seat, self._effect(state, seat, state.pending))
            if action[0] == "take-back":
                if state.take_backs[seat] >= state.take_back_limit:
                    raise RuleError("no-take-backs-left", "You have no take-backs left in this game.")
                used = list(state.take_backs)
                used[seat] += 1
                event = Event(
                    state.ply, seat, "take-back", f"took back: {describe(state.pending)} (pen not lifted)"
                )
                return state._replace(
                    pending=None, take_backs=(used[0], used[1]), history=(*state.history, event)
                )
            raise RuleError("move-pending", "Confirm or take back your pending move first.")
        if action[0] in ("confirm", "take-back"):
            raise RuleError("nothing-pending", "There is no pending move to confirm or take back.")
        effect = self._effect(state, seat, action)
        if state.confirm_moves:
            return state._replace(pending=action)
        return self._commit(state, seat, effect)

    def _commit(self, state: TTTState, seat: Seat, effect: _Effect) -> TTTState:
        ply = state.ply + 1
        history = [*state.history, effect.event]
        checkpoints = []
        for checkpoint in effect.checkpoints:
            if ply >= checkpoint.ends_at:  # 4.06(b): gone after its two full turns
                text = f"the Checkpoint Charlie on {checkpoint.target} disappeared"
                history.append(Event(ply, None, "checkpoint-gone", text, REDRAW_REASONS["checkpoint-gone"]))
            else:
                checkpoints.append(checkpoint)
        after = state._replace(
            cells=effect.cells,
            ply=ply,
            blockages=effect.blockages,
            checkpoints=tuple(checkpoints),
            spent=effect.spent,
            wire_cutters=effect.wire_cutters,
            ronald_reagans=effect.ronald_reagans,
            pending=None,
            history=tuple(history),
        )
        blocked = after.blocked
        for who in (seat, 1 - seat):
            lines = geo.lines_of(after.cells, blocked, state.symbols[who])
            if lines:  # only one player can have a line: moves giving both are refused
                reason = f"{state.symbols[who]} has three in a row: {', '.join(map(str, lines[0]))}."
                outcome = Outcome(result="win", winner=who, reason=reason)
                return after._replace(to_move=(), outcome=outcome, winning_line=lines[0])
        following = after._replace(to_move=(1 - seat,))
        if next(self._legal_actions(following, 1 - seat), None) is None:
            reason = f"{state.symbols[1 - seat]} has no legal move left and nobody has three in a row."
            return after._replace(to_move=(), outcome=Outcome(result="draw", reason=reason))
        return following

    def outcome(self, state: State) -> Outcome | None:
        assert isinstance(state, TTTState)
        return state.outcome

    def describe_move(self, move: Move) -> str:
        try:
            return describe(parse_move(move))
        except RuleError:
            return str(move)

    # -- views and storage ------------------------------------------------------------------

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        assert isinstance(state, TTTState)
        # Nothing is secret: a pending move is being drawn in plain sight.
        move_number = state.ply + 1
        blockages = []
        for blockage in state.blockages:
            data = blockage.as_dict()
            data["protected"] = move_number <= blockage.protected_until
            data["protected_moves_left"] = max(0, blockage.protected_until - state.ply)
            blockages.append(data)
        return {
            "variant": self.slug,
            "version": state.version,
            "symbols": list(state.symbols),
            "first": state.symbols[state.first],
            "board": list(state.cells),
            "blockages": blockages,
            "blocked_segments": [geo.SEGMENT_NAMES[s] for s in geo.segments_of(state.blocked)],
            "checkpoints": [c.as_dict() for c in state.checkpoints],
            "specials_left": [{name: name not in state.spent[s] for name in SPECIALS} for s in (0, 1)],
            "wire_cutters_left": state.wire_cutters,
            "ronald_reagans_left": state.ronald_reagans,
            "take_backs_left": [state.take_back_limit - used for used in state.take_backs],
            "confirm_moves": state.confirm_moves,
            "pending": None
            if state.pending is None
            else {"move": move_of(state.pending), "text": describe(state.pending)},
            "moves_made": state.ply,
            "history": [e.as_dict() for e in state.history],
            "winning_line": list(state.winning_line) if state.winning_line else None,
            "to_move": list(state.to_move),
            "outcome": state.outcome.as_dict() if state.outcome is not None else None,
        }

    def dump(self, state: State) -> dict[str, Any]:
        assert isinstance(state, TTTState)
        return {
            "version": state.version,
            "symbols": list(state.symbols),
            "first": state.first,
            "confirm_moves": state.confirm_moves,
            "bwahs": state.bwahs,
            "take_back_limit": state.take_back_limit,
            "seed": state.seed,
            "cells": list(state.cells),
            "ply": state.ply,
            "to_move": list(state.to_move),
            "blockages": [
                [b.kind, b.name, b.owner, b.mask, b.placed_at, b.protected_until] for b in state.blockages
            ],
            "checkpoints": [[c.owner, c.target, c.placed_at, c.ends_at] for c in state.checkpoints],
            "spent": [list(state.spent[0]), list(state.spent[1])],
            "wire_cutters": state.wire_cutters,
            "ronald_reagans": state.ronald_reagans,
            "take_backs": list(state.take_backs),
            "pending": None if state.pending is None else move_of(state.pending),
            "history": [[e.ply, e.seat, e.kind, e.text, e.redraw] for e in state.history],
            "outcome": state.outcome.as_dict() if state.outcome is not None else None,
            "winning_line": list(state.winning_line) if state.winning_line else None,
        }

    def load(self, data: Mapping[str, Any]) -> TTTState:
        try:
            outcome_data = data["outcome"]
            outcome = None
            if outcome_data is not None:
                scores = outcome_data["scores"]
                outcome = Outcome(
                    result=str(outcome_data["result"]),
                    winner=outcome_data["winner"],
                    scores=tuple(scores) if scores is not None else None,  # type: ignore[arg-type]
                    reason=str(outcome_data["reason"]),
                )
            line = data["winning_line"]
            state = TTTState(
                version=str(data["version"]),
                symbols=(str(data["symbols"][0]), str(data["symbols"][1])),
                first=int(data["first"]),
                confirm_moves=bool(data["confirm_moves"]),
                bwahs=bool(data["bwahs"]),
                take_back_limit=int(data["take_back_limit"]),
                seed=str(data["seed"]),
                cells=tuple(None if v is None else str(v) for v in data["cells"]),
                ply=int(data["ply"]),
                to_move=tuple(int(s) for s in data["to_move"]),
                blockages=tuple(
                    Blockage(str(k), str(n), None if o is None else int(o), int(m), int(p), int(u))
                    for k, n, o, m, p, u in data["blockages"]
                ),
                checkpoints=tuple(
                    Checkpoint(int(o), str(t), int(p), int(e)) for o, t, p, e in data["checkpoints"]
                ),
                spent=(tuple(map(str, data["spent"][0])), tuple(map(str, data["spent"][1]))),
                wire_cutters=int(data["wire_cutters"]),
                ronald_reagans=int(data["ronald_reagans"]),
                take_backs=(int(data["take_backs"][0]), int(data["take_backs"][1])),
                pending=None if data["pending"] is None else parse_move(data["pending"]),
                history=tuple(
                    Event(
                        int(p), None if s is None else int(s), str(k), str(t), None if r is None else str(r)
                    )
                    for p, s, k, t, r in data["history"]
                ),
                outcome=outcome,
                winning_line=tuple(int(s) for s in line) if line else None,  # type: ignore[arg-type]
            )
        except (KeyError, IndexError, TypeError, ValueError, RuleError) as exc:
            raise RuleError("bad-state", "This is not a stored T-Tic-T-Tac-Toe game.") from exc
        if state.version not in VERSIONS or len(state.cells) != 25 or set(state.symbols) != set(LETTERS):
            raise RuleError("bad-state", "This is not a stored T-Tic-T-Tac-Toe game.")
        return state


# -- small helpers ---------------------------------------------------------------------------


def _blocked(blockages: tuple[Blockage, ...]) -> int:
    mask = 0
    for blockage in blockages:
        mask |= blockage.mask
    return mask


def _spend(
    spent: tuple[tuple[str, ...], tuple[str, ...]], seat: Seat, special: str
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    mine = tuple(sorted((*spent[seat], special)))
    return (mine, spent[1]) if seat == 0 else (spent[0], mine)


def _find(blockages: tuple[Blockage, ...], name: str) -> Blockage:
    for blockage in blockages:
        if blockage.name == name:
            return blockage
    raise RuleError("no-such-blockage", f"There is no standing blockage {name} on the board.")
