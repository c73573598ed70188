"""Classic Tic Tac Toe, with its errata and FAQ v1.03 (seed text 000).

A 3x3 grid, squares 1..9 from the upper left, row by row. Player One (seat 0) places
X, Player Two (seat 1) places O, in turn, each in an unoccupied square; three in a row
across, down or diagonally wins; a full grid without three in a row is a draw.

House rules the FAQ allows: the two players' letters may be swapped (``symbols``) and
O may go first (``first``). Only the letters X and O exist.

The state is built for speed (the whole game tree is walked in tests and benches):
a tuple subclass holding one bitmask of squares per seat, with the outcome computed
once, when the move that ends the game is applied.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from operator import itemgetter
from typing import Any, ClassVar

from ...base import Move, Outcome, Seat, State, Variant, Viewer, require_int, require_mapping
from ...chance import normalise_seed
from ...errors import RuleError
from ...results import Names
from . import ai, board, describe
from .grid import CELLS, FREE_CELLS, FULL, HAS_LINE, LINE_MASKS, LINES

LETTERS = ("X", "O")
WIN_BY = (
    Outcome(result="win", winner=0, reason="Player One has three in a row."),
    Outcome(result="win", winner=1, reason="Player Two has three in a row."),
)
DRAW = Outcome(result="draw", reason="The grid is filled and no one has three in a row.")
NOBODY: tuple[Seat, ...] = ()
ONLY = ((0,), (1,))


#: The fields of a classic state, in order (see ClassicState).
_Fields = tuple[int, int, tuple[Seat, ...], Outcome | None, Seat, tuple[str, str], str, int]


class ClassicState(State, _Fields):
    """(marks0, marks1, to_move, outcome, first, symbols, seed, last_cell).

    ``marks0``/``marks1``: bitmask of the squares seat 0 / seat 1 has marked (bit
    n-1 for square n). ``first``: the seat that moved first. ``symbols``: the
    letters of seat 0 and seat 1. ``last_cell``: the square last marked, or 0.
    Immutable: a tuple.
    """

    __slots__ = ()

    marks0: int = property(itemgetter(0))  # type: ignore[assignment]
    marks1: int = property(itemgetter(1))  # type: ignore[assignment]
    to_move: tuple[Seat, ...] = property(itemgetter(2))  # type: ignore[assignment]
    outcome: Outcome | None = property(itemgetter(3))  # type: ignore[assignment]
    first: Seat = property(itemgetter(4))  # type: ignore[assignment]
    symbols: tuple[str, str] = property(itemgetter(5))  # type: ignore[assignment]
    seed: str = property(itemgetter(6))  # type: ignore[assignment]
    last_cell: int = property(itemgetter(7))  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ClassicState({self.marks0:#011b}, {self.marks1:#011b}, to_move={self.to_move})"


_new_state = tuple.__new__


def _letters_refused(what: str) -> RuleError:
    # FAQ: "No. It must be Xs and Os. These are the only letters that work."
    return RuleError(
        "bad-options",
        f"{what}: it must be Xs and Os. X and O are the only letters that exist in Tic Tac Toe.",
    )


class Classic(Variant):
    slug = "classic"
    _setups: ClassVar[dict[str, tuple[tuple[str, str], Seat]]] = {}
    name = "Tic Tac Toe"
    display_name = "Classic Tic Tac Toe"
    summary = "The 3x3 game: place X and O in turn; three in a row wins."
    board_template = "games/boards/classic.html"
    presets = describe.PRESETS
    # A quick game of at most nine moves: a game clock, as on Lichess.
    default_seconds_per_move = None
    default_seconds_per_game = 3 * 60
    options_schema = {
        "type": "object",
        "properties": {
            "symbols": {
                "title": "Letters",
                "description": (
                    "The letters of Player One and Player Two. Only X and O exist; a house rule may "
                    'swap them (Player One uses O): ["O", "X"].'
                ),
                "type": "array",
                "items": {"type": "string", "enum": list(LETTERS)},
                "minItems": 2,
                "maxItems": 2,
                "default": ["X", "O"],
            },
            "first": {
                "title": "Who goes first",
                "description": "The letter that is placed first. By the rules X goes first; a house rule may let O go first.",
                "type": "string",
                "enum": list(LETTERS),
                "default": "X",
            },
        },
        "additionalProperties": False,
    }

    state_schema = {
        "type": "object",
        "properties": {
            "board": {"type": "array", "items": {"enum": [None, *LETTERS]}, "minItems": 9, "maxItems": 9},
            "symbols": {
                "type": "array",
                "items": {"enum": list(LETTERS)},
                "minItems": 2,
                "maxItems": 2,
                "uniqueItems": True,
            },
            "first": {"enum": list(LETTERS)},
            "seed": {"type": "string"},
            "last_cell": {"anyOf": [{"type": "null"}, {"type": "integer", "minimum": 1, "maximum": 9}]},
        },
        # last_cell came later: games stored before it load without one.
        "required": ["board", "symbols", "first", "seed"],
        "additionalProperties": False,
    }

    # -- options ---------------------------------------------------------------------

    def check_options(self, options: dict[str, Any]) -> None:
        symbols = options.get("symbols")
        if not isinstance(symbols, (list, tuple)) or len(symbols) != 2:
            raise RuleError(
                "bad-options", 'The letters are a pair, Player One\'s then Player Two\'s: ["X", "O"].'
            )
        for letter in symbols:
            if letter not in LETTERS:
                raise _letters_refused(f"{letter!r} is not a letter you can play")
        if symbols[0] == symbols[1]:
            raise RuleError("bad-options", "The two players need different letters: one X and one O.")
        first = options.get("first")
        if first not in LETTERS:
            raise _letters_refused(f"{first!r} cannot go first")

    def new_game(
        self, options: Mapping[str, Any] | None = None, seed: int | str | None = None
    ) -> ClassicState:
        symbols, first = self._setup(options)
        return _new_state(ClassicState, (0, 0, ONLY[first], None, first, symbols, normalise_seed(seed), 0))

    def _setup(self, options: Mapping[str, Any] | None) -> tuple[tuple[str, str], Seat]:
        """(letters of seat 0 and seat 1, the seat moving first) for ``options``.

        JSON Schema validation costs ~0.2 ms and there are only a handful of valid
        option sets, so each distinct one is validated once and remembered.
        """
        key: str | None = "null"
        if options is not None:
            try:
                key = json.dumps(options, sort_keys=True)
            except (TypeError, ValueError):
                key = None
        setup = self._setups.get(key) if key is not None else None
        if setup is None:
            opts = self.validate_options(options)
            symbols = (opts["symbols"][0], opts["symbols"][1])
            setup = (symbols, symbols.index(opts["first"]))
            if key is not None:
                self._setups[key] = setup
        return setup

    # -- play -------------------------------------------------------------------------

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        if seat not in state[2]:  # type: ignore[index]
            return []
        return [{"cell": c} for c in FREE_CELLS[state[0] | state[1]]]  # type: ignore[index]

    def random_move(self, state: State, seat: Seat, rng: random.Random) -> Move:
        if seat not in state[2]:  # type: ignore[index]
            raise RuleError("not-your-turn", "You have no move to make now.")
        free = FREE_CELLS[state[0] | state[1]]  # type: ignore[index]
        # rng.random() is about 3x cheaper than rng.choice, and uniform over at most 9 squares
        return {"cell": free[int(rng.random() * len(free))]}

    def apply(self, state: State, seat: Seat, move: Any) -> ClassicState:
        # The hot path of every benchmark and AI search: plain tuple indexing, no helpers.
        if type(move) is dict and len(move) == 1 and type(cell := move.get("cell")) is int and 0 < cell < 10:
            pass
        else:
            cell = _parse_cell(move)
        assert type(state) is ClassicState
        marks0, marks1, to_move, outcome, first, symbols, seed, _ = state
        if outcome is not None:
            raise RuleError("game-over", "The game is over; no more moves can be made.")
        if seat not in to_move:  # the base class has checked that seat is 0 or 1
            raise RuleError("not-your-turn", "It is not your turn: players take turns, it's not a race.")
        bit = 1 << (cell - 1)
        if (marks0 | marks1) & bit:
            raise RuleError("occupied", f"Square {cell} is taken: you can only place in an unoccupied space.")
        if seat == 0:
            marks0 |= bit
            won = HAS_LINE[marks0]
        else:
            marks1 |= bit
            won = HAS_LINE[marks1]
        if won:  # three in a row wins, even with the grid just filled (FAQ: the Cheerios)
            return _new_state(
                ClassicState, (marks0, marks1, NOBODY, WIN_BY[seat], first, symbols, seed, cell)
            )
        if marks0 | marks1 == FULL:
            return _new_state(ClassicState, (marks0, marks1, NOBODY, DRAW, first, symbols, seed, cell))
        return _new_state(ClassicState, (marks0, marks1, ONLY[1 - seat], None, first, symbols, seed, cell))

    def outcome(self, state: State) -> Outcome | None:
        return state[3]  # type: ignore[index,no-any-return]

    # -- what players see, storage -------------------------------------------------------

    def board(self, state: ClassicState) -> list[str | None]:
        """Nine entries, square 1 first: the letter there, or None."""
        marks0, marks1, symbols = state[0], state[1], state[5]
        board: list[str | None] = []
        for c in CELLS:
            bit = 1 << (c - 1)
            board.append(symbols[0] if marks0 & bit else symbols[1] if marks1 & bit else None)
        return board

    def winning_line(self, state: ClassicState) -> list[int] | None:
        """The squares of a three in a row, when the game was won."""
        outcome = state[3]
        if outcome is None or outcome.winner is None:
            return None
        mine = state.marks0 if outcome.winner == 0 else state.marks1
        for line, mask in zip(LINES, LINE_MASKS, strict=True):
            if mine & mask == mask:
                return list(line)
        return None  # pragma: no cover - a won state always holds a line

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        assert isinstance(state, ClassicState)
        # Nothing is secret in Tic Tac Toe: every viewer (players, observers) sees it all.
        outcome = state[3]
        return {
            "variant": self.slug,
            "board": self.board(state),
            "symbols": list(state.symbols),
            "first": state.symbols[state.first],
            "to_move": list(state.to_move),
            "last_cell": state.last_cell or None,
            "winning_line": self.winning_line(state),
            "outcome": outcome.as_dict() if outcome is not None else None,
        }

    def dump(self, state: State) -> dict[str, Any]:
        assert isinstance(state, ClassicState)
        return {
            "board": self.board(state),
            "symbols": list(state.symbols),
            "first": state.symbols[state.first],
            "seed": state.seed,
            "last_cell": state.last_cell or None,
        }

    def load(self, data: Mapping[str, Any]) -> ClassicState:
        symbols = (data["symbols"][0], data["symbols"][1])
        first = symbols.index(data["first"])
        last_cell = data.get("last_cell") or 0
        marks = [0, 0]
        for index, entry in enumerate(data["board"]):
            if entry is not None:
                marks[symbols.index(entry)] |= 1 << index
        marks0, marks1 = marks
        # Turns alternate from the first seat, so the counts tell whose turn it is.
        count_first, count_second = bin(marks[first]).count("1"), bin(marks[1 - first]).count("1")
        if count_first - count_second not in (0, 1):
            raise RuleError("bad-state", "The marks on this board cannot come from alternating turns.")
        if last_cell and not (marks0 | marks1) >> (last_cell - 1) & 1:
            raise RuleError("bad-state", f"The last square marked, {last_cell}, is empty on this board.")
        mover = first if count_first == count_second else 1 - first
        outcome: Outcome | None = None
        if HAS_LINE[marks0] and HAS_LINE[marks1]:
            raise RuleError("bad-state", "Both players cannot have three in a row: the game ends at the first.")
        if HAS_LINE[marks0] or HAS_LINE[marks1]:
            winner = 0 if HAS_LINE[marks0] else 1
            if mover == winner:  # the three in a row ended the game on its maker's move
                raise RuleError("bad-state", "A move was made after the game was won.")
            outcome = WIN_BY[winner]
        elif marks0 | marks1 == FULL:
            outcome = DRAW
        to_move = NOBODY if outcome is not None else ONLY[mover]
        return _new_state(
            ClassicState, (marks0, marks1, to_move, outcome, first, symbols, data["seed"], last_cell)
        )

    def describe_move(self, move: Move) -> str:
        return f"square {move.get('cell')}"

    # -- the other parts of the package ----------------------------------------------------

    def strong_move(self, state: State, seat: Seat, rng: random.Random) -> Move:
        return ai.strong_move(self, state, seat, rng)

    def casual_move(self, state: State, seat: Seat, rng: random.Random) -> Move:
        return ai.casual_move(self, state, seat, rng)

    def describe_rules(self, options: Mapping[str, Any]) -> list[str]:
        return describe.describe_rules(options)

    def describe_move_line(self, move: Move, seat: Seat, view: Mapping[str, Any], ply: int) -> str:
        return describe.move_line(move, seat, view, ply)

    def describe_result(self, view: Mapping[str, Any], result: Mapping[str, Any], names: Names = None) -> str:
        return describe.describe_result(view, result, names)

    def build_board(
        self, view: dict[str, Any], legal: list[dict[str, Any]], seat: Viewer, my_turn: bool
    ) -> dict[str, Any]:
        return board.build_board(view, legal, seat, my_turn)


def _parse_cell(move: Any) -> int:
    """The square of ``{"cell": n}``; a fast path for well-formed moves, RuleError otherwise."""
    if type(move) is dict and len(move) == 1:
        cell = move.get("cell")
        if type(cell) is int and 1 <= cell <= 9:
            return cell
    require_mapping(move, ("cell",))
    return require_int(move["cell"], 1, 9, "square")
