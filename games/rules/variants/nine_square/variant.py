"""Nine-Square: nine Tic-Tac-Toe boards, a die says how many marks you must place.

Rules text: "Tic-Tac-Toe Variation 1 - Nine-Square", v 1.1; decisions: ``docs/rules/nine-square.md``.

Geometry: boards and squares are numbered 1..9 from the upper left, row by row. The
grid is stored as one 81-character string, board by board: index
``(board - 1) * 9 + (square - 1)`` holds "X", "O" or "." (empty).

Chance: every die is a draw of the game's seed (``chance.roll_die(seed, n)``), so a game
replays exactly from its seed and its moves. The set-up rolls use the first draws; each
turn's roll is the next draw, made when that turn begins.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ... import chance
from ...base import Move, Outcome, Seat, State, Variant, Viewer, require_int, require_mapping
from ...errors import RuleError
from ...results import Names
from ...schema import SEAT_SCHEMA, TO_MOVE_SCHEMA, array, integer, nullable
from . import ai, board, describe
from .scoring import BOARD_LINE_BONUS, GRID_LINES

EMPTY = "."
LETTERS = ("X", "O")
SQUARES = 81
DIE_SIDES = 6
#: legal_moves lists every move only up to this many; beyond it, the compact form.
LEGAL_MOVES_LIMIT = 5000

#: The 72 small lines of the whole grid, as indexes into the 81-character string.
SMALL_LINES: tuple[tuple[int, int, int], ...] = tuple(
    (b * 9 + i, b * 9 + j, b * 9 + k) for b in range(9) for (i, j, k) in GRID_LINES
)
#: Which board (0-based) each small line lies on.
LINE_BOARD: tuple[int, ...] = tuple(b for b in range(9) for _ in GRID_LINES)

X_PLAYER_CHOICES = ("roll", "player-one", "player-two")
#: Why a game ended: every square marked, or no line left that anyone could complete.
END_REASONS = (None, "grid-full", "nothing-left-to-score")


def index_of(board: int, square: int) -> int:
    """The grid index of ``square`` (1..9) on ``board`` (1..9)."""
    return (board - 1) * 9 + (square - 1)


def mark_of(index: int) -> list[int]:
    """The [board, square] pair (both 1..9) of a grid index."""
    return [index // 9 + 1, index % 9 + 1]


@dataclass(frozen=True, slots=True)
class NineSquareState(State):
    """One moment of a game. Immutable; ``apply`` builds the next one."""

    seed: str
    #: How many draws of the seed have been used (set-up rolls and turn rolls).
    draws: int
    x_player: str
    #: The set-up rolls, one (seat 0, seat 1) pair per attempt; ties roll again.
    setup_rolls: tuple[tuple[int, int], ...]
    #: The seat playing X, who moves first.
    x_seat: Seat
    cells: str
    #: The die of the turn in progress; None once the game is over.
    roll: int | None
    to_move: tuple[Seat, ...]
    #: Turns completed so far.
    turn: int
    #: The turn just played: (seat, roll, marks as grid indexes), for the view.
    last_turn: tuple[Seat, int, tuple[int, ...]] | None
    #: Why the game ended ("grid-full" or "nothing-left-to-score"), None while it runs.
    end_reason: str | None

    def letter_of(self, seat: Seat) -> str:
        return "X" if seat == self.x_seat else "O"


# -- scoring ---------------------------------------------------------------------------


def line_points(cells: str, letter: str) -> int:
    """One point for each small line that ``letter`` holds entirely."""
    return sum(1 for a, b, c in SMALL_LINES if cells[a] == cells[b] == cells[c] == letter)


def boards_with_a_line(cells: str, letter: str) -> set[int]:
    """The boards (0-based) on which ``letter`` holds at least one three in a row."""
    return {
        LINE_BOARD[n] for n, (a, b, c) in enumerate(SMALL_LINES) if cells[a] == cells[b] == cells[c] == letter
    }


def bonus_points(cells: str, letter: str) -> int:
    """Three points for each line of boards (of the 8) whose three boards all hold a line of ``letter``."""
    boards = boards_with_a_line(cells, letter)
    return BOARD_LINE_BONUS * sum(1 for line in GRID_LINES if all(b in boards for b in line))


def points(cells: str, letter: str) -> int:
    return line_points(cells, letter) + bonus_points(cells, letter)


def nothing_left_to_score(cells: str) -> bool:
    """True when no empty square lies on a line that either player could still complete.

    A line can still be completed only if it has an empty square and holds one letter
    at most. Board-line bonuses only grow when a small line is completed, so once every
    line is full or holds both letters, no mark can change any score.
    """
    for a, b, c in SMALL_LINES:
        trio = cells[a] + cells[b] + cells[c]
        if EMPTY in trio and not ("X" in trio and "O" in trio):
            return False
    return True


# -- the variant -------------------------------------------------------------------------


class NineSquare(Variant):
    slug = "nine-square"
    name = "Nine-Square"
    display_name = "Nine-Square"
    summary = "Nine boards at once: the die says how many marks you place; lines and lines of boards score."
    board_template = "games/boards/nine-square.html"
    presets = describe.PRESETS
    # Many short moves (a die roll, then marks): a limit per move, not a game clock.
    default_seconds_per_move = 60
    default_seconds_per_game = None
    huge_move_space = True
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "x_player": {
                "type": "string",
                "enum": list(X_PLAYER_CHOICES),
                "default": "roll",
                "title": "Who is X",
                "description": (
                    "'roll' (the rules): both players roll the die, the higher roll is X and "
                    "moves first, ties roll again. 'player-one' or 'player-two' fixes X in "
                    "advance (a house rule, e.g. for tournaments that balance who starts)."
                ),
            },
        },
        "additionalProperties": False,
    }

    state_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "seed": {"type": "string"},
            "draws": integer(0),
            "x_player": {"enum": list(X_PLAYER_CHOICES)},
            "setup_rolls": array(array(integer(1, DIE_SIDES), 2)),
            "x_seat": SEAT_SCHEMA,
            "board": array({"type": "string", "pattern": "^[.XO]{9}$"}, 9),
            "roll": nullable(integer(1, DIE_SIDES)),
            "to_move": {**TO_MOVE_SCHEMA, "maxItems": 1},
            "turn": integer(0),
            "last_turn": nullable(
                {
                    "type": "array",
                    "prefixItems": [SEAT_SCHEMA, integer(1, DIE_SIDES), array(integer(0, SQUARES - 1), most=DIE_SIDES)],
                    "minItems": 3,
                    "maxItems": 3,
                }
            ),
            "end_reason": {"enum": list(END_REASONS)},
        },
        "required": [
            "seed", "draws", "x_player", "setup_rolls", "x_seat", "board", "roll", "to_move", "turn",
            "last_turn", "end_reason",
        ],
        "additionalProperties": False,
    }  # fmt: skip

    def letters_by_chance(self, options: Mapping[str, Any]) -> bool:
        return bool(self.validate_options(options)["x_player"] == "roll")

    def check_options(self, options: dict[str, Any]) -> None:
        if options.get("x_player") not in X_PLAYER_CHOICES:
            raise RuleError("bad-options", "Who is X must be 'roll', 'player-one' or 'player-two'.")

    # -- set-up ---------------------------------------------------------------------------

    def new_game(self, options: Mapping[str, Any] | None = None, seed: int | str | None = None) -> State:
        opts = self.validate_options(options)
        seed_text = chance.normalise_seed(seed)
        draws = 0
        setup: list[tuple[int, int]] = []
        if opts["x_player"] == "roll":
            # Each player rolls; the higher roll is X and goes first; ties roll again.
            while True:
                pair = (chance.roll_die(seed_text, draws), chance.roll_die(seed_text, draws + 1))
                draws += 2
                setup.append(pair)
                if pair[0] != pair[1]:
                    break
            x_seat = 0 if setup[-1][0] > setup[-1][1] else 1
        else:
            x_seat = 0 if opts["x_player"] == "player-one" else 1
        first_roll = chance.roll_die(seed_text, draws)
        return NineSquareState(
            seed=seed_text,
            draws=draws + 1,
            x_player=opts["x_player"],
            setup_rolls=tuple(setup),
            x_seat=x_seat,
            cells=EMPTY * SQUARES,
            roll=first_roll,
            to_move=(x_seat,),
            turn=0,
            last_turn=None,
            end_reason=None,
        )

    # -- moves ----------------------------------------------------------------------------

    @staticmethod
    def marks_required(state: NineSquareState) -> int:
        """The die, or every empty square left when fewer remain than the die shows."""
        if state.roll is None:
            return 0
        return min(state.roll, state.cells.count(EMPTY))

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        """Every legal move, or (when there are more than LEGAL_MOVES_LIMIT) a compact form.

        The compact form is a one-item list ``[{"choose": k, "from": [[board, square], ...],
        "count": n}]``: any ``k`` different squares of ``from`` make a legal move, and there
        are ``n`` such moves. It has no "marks" key, so it can never be applied by mistake.
        """
        assert isinstance(state, NineSquareState)
        if seat not in state.to_move:
            return []
        empties = [i for i, cell in enumerate(state.cells) if cell == EMPTY]
        k = self.marks_required(state)
        count = math.comb(len(empties), k)
        if count > LEGAL_MOVES_LIMIT:
            return [{"choose": k, "from": [mark_of(i) for i in empties], "count": count}]
        return [{"marks": [mark_of(i) for i in combo]} for combo in itertools.combinations(empties, k)]

    def random_move(self, state: State, seat: Seat, rng: random.Random) -> Move:
        """A uniformly chosen legal move: ``k`` different empty squares, without listing them all."""
        assert isinstance(state, NineSquareState)
        if seat not in state.to_move:
            raise RuleError("not-your-turn", "You have no move to make now.")
        empties = [i for i, cell in enumerate(state.cells) if cell == EMPTY]
        chosen = sorted(rng.sample(empties, self.marks_required(state)))
        return {"marks": [mark_of(i) for i in chosen]}

    def parse_marks(self, state: NineSquareState, move: Any) -> tuple[int, ...]:
        """The grid indexes a move marks, checked against the rules; RuleError if refused."""
        marks = require_mapping(move, ["marks"])["marks"]
        if not isinstance(marks, (list, tuple)):
            raise RuleError("malformed-move", 'List your marks as {"marks": [[board, square], ...]}.')
        indexes: list[int] = []
        for mark in marks:
            if not isinstance(mark, (list, tuple)) or len(mark) != 2:
                raise RuleError(
                    "malformed-move", "Each mark is a pair [board, square], both numbered 1 to 9."
                )
            board = require_int(mark[0], 1, 9, "board number")
            square = require_int(mark[1], 1, 9, "square number")
            index = index_of(board, square)
            if index in indexes:
                raise RuleError(
                    "repeated-square", f"Square {square} of board {board} is listed twice in your move."
                )
            if state.cells[index] != EMPTY:
                raise RuleError("square-taken", f"Square {square} of board {board} is already marked.")
            indexes.append(index)
        needed = self.marks_required(state)
        if len(indexes) != needed:
            why = "the die shows" if needed == state.roll else "that many squares are left"
            raise RuleError(
                "wrong-number-of-marks",
                f"You must place exactly {needed} mark{'s' if needed != 1 else ''} ({why}); "
                f"your move has {len(indexes)}.",
            )
        return tuple(indexes)

    def apply(self, state: State, seat: Seat, move: Any) -> State:
        assert isinstance(state, NineSquareState)
        if not state.to_move:
            raise RuleError("game-over", "The game is over.")
        if seat not in state.to_move:
            raise RuleError("not-your-turn", "It is not your turn.")
        indexes = self.parse_marks(state, move)
        letter = state.letter_of(seat)
        cells = list(state.cells)
        for index in indexes:
            cells[index] = letter
        new_cells = "".join(cells)
        last_turn = (seat, state.roll or 0, tuple(sorted(indexes)))
        end_reason = None
        if EMPTY not in new_cells:
            end_reason = "grid-full"
        elif nothing_left_to_score(new_cells):
            end_reason = "nothing-left-to-score"
        if end_reason is not None:
            return NineSquareState(
                seed=state.seed, draws=state.draws, x_player=state.x_player,
                setup_rolls=state.setup_rolls, x_seat=state.x_seat, cells=new_cells, roll=None,
                to_move=(), turn=state.turn + 1, last_turn=last_turn, end_reason=end_reason,
            )  # fmt: skip
        # The other player's turn begins: they roll the die.
        return NineSquareState(
            seed=state.seed, draws=state.draws + 1, x_player=state.x_player,
            setup_rolls=state.setup_rolls, x_seat=state.x_seat, cells=new_cells,
            roll=chance.roll_die(state.seed, state.draws), to_move=(1 - seat,),
            turn=state.turn + 1, last_turn=last_turn, end_reason=None,
        )  # fmt: skip

    # -- results and views --------------------------------------------------------------------

    def scores(self, state: State) -> tuple[int, int]:
        """Points of (seat 0, seat 1) so far."""
        assert isinstance(state, NineSquareState)
        return (points(state.cells, state.letter_of(0)), points(state.cells, state.letter_of(1)))

    def outcome(self, state: State) -> Outcome | None:
        assert isinstance(state, NineSquareState)
        if state.end_reason is None:
            return None
        scores = self.scores(state)
        if scores[0] == scores[1]:
            return Outcome(result="draw", winner=None, scores=scores, reason=state.end_reason)
        winner = 0 if scores[0] > scores[1] else 1
        return Outcome(result="win", winner=winner, scores=scores, reason=state.end_reason)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """Everything is public in Nine-Square (the die is rolled in the open): every viewer sees the same."""
        assert isinstance(state, NineSquareState)
        letters = [state.letter_of(0), state.letter_of(1)]
        outcome = self.outcome(state)
        last = None
        if state.last_turn is not None:
            seat, roll, marks = state.last_turn
            last = {"seat": seat, "roll": roll, "marks": [mark_of(i) for i in marks]}
        return {
            "variant": self.slug,
            "viewer": viewer,
            "board": [
                [None if cell == EMPTY else cell for cell in state.cells[b * 9 : b * 9 + 9]] for b in range(9)
            ],
            "letters": letters,
            "x_seat": state.x_seat,
            "setup_rolls": [list(pair) for pair in state.setup_rolls],
            "roll": state.roll,
            "marks_to_place": self.marks_required(state),
            "turn": state.turn,
            "last_turn": last,
            "points": {
                "lines": [line_points(state.cells, letter) for letter in letters],
                "bonus": [bonus_points(state.cells, letter) for letter in letters],
            },
            "scores": list(self.scores(state)),
            "to_move": list(state.to_move),
            "outcome": outcome.as_dict() if outcome is not None else None,
        }

    def describe_move(self, move: Move) -> str:
        """Marks as board/square pairs: ``{"marks": [[5, 5], [1, 9]]}`` is "5/5 1/9"."""
        try:
            return " ".join(f"{int(b)}/{int(s)}" for b, s in move["marks"])
        except (TypeError, KeyError, ValueError):
            return str(move)

    # -- storage --------------------------------------------------------------------------------

    def dump(self, state: State) -> dict[str, Any]:
        assert isinstance(state, NineSquareState)
        return {
            "seed": state.seed,
            "draws": state.draws,
            "x_player": state.x_player,
            "setup_rolls": [list(pair) for pair in state.setup_rolls],
            "x_seat": state.x_seat,
            "board": [state.cells[b * 9 : b * 9 + 9] for b in range(9)],
            "roll": state.roll,
            "to_move": list(state.to_move),
            "turn": state.turn,
            "last_turn": (
                None
                if state.last_turn is None
                else [state.last_turn[0], state.last_turn[1], list(state.last_turn[2])]
            ),
            "end_reason": state.end_reason,
        }

    def load(self, data: Mapping[str, Any]) -> State:
        last = data["last_turn"]
        state = NineSquareState(
            seed=data["seed"],
            draws=data["draws"],
            x_player=data["x_player"],
            setup_rolls=tuple((a, b) for a, b in data["setup_rolls"]),
            x_seat=data["x_seat"],
            cells="".join(data["board"]),
            roll=data["roll"],
            to_move=tuple(data["to_move"]),
            turn=data["turn"],
            last_turn=None if last is None else (last[0], last[1], tuple(last[2])),
            end_reason=data["end_reason"],
        )
        problem = _inconsistency(state)
        if problem is not None:
            raise RuleError("bad-state", f"This saved Nine-Square game cannot be read: {problem}.")
        return state

    # -- the other parts of the package -----------------------------------------------------------

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


def _inconsistency(state: NineSquareState) -> str | None:
    """What in a stored state cannot come from play (the schema has checked the types)."""
    if (state.x_player == "roll") != bool(state.setup_rolls):
        return "the set-up rolls do not match who is X"
    if any(a != b for a, b in state.setup_rolls[:-1]):
        return "only tied set-up rolls are rolled again"
    if state.setup_rolls:
        first, second = state.setup_rolls[-1]
        if first == second or state.x_seat != (0 if first > second else 1):
            return "the last set-up roll does not decide X"
    elif state.x_seat != (0 if state.x_player == "player-one" else 1):
        return "X is not the seat the house rule names"
    if state.draws < 2 * len(state.setup_rolls) + 1:
        return "fewer draws than the rolls made"
    running = state.end_reason is None
    if running != bool(state.to_move) or running != (state.roll is not None):
        return "a running game has a seat to move and a roll, a finished one neither"
    if state.last_turn is not None:
        if any(state.cells[i] == EMPTY for i in state.last_turn[2]):
            return "the last turn's marks are not on the board"
        if state.to_move and state.to_move[0] == state.last_turn[0]:
            return "the same seat moves twice in a row"
    return None
