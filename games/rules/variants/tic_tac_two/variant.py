"""Tic Tac Two (Galmines, Wolfer, Losey, Herr, Joeysin; seed text 003).

A 4x4 grid; four in a row across, down or diagonally wins. Before play the players
draft three special actions each (Double, Swap, Shift, Dibs Space, Intersect Space,
Wall): O (seat 1) picks first, then they alternate. X (seat 0) writes the first letter.
From a player's second turn on, one special action may come before the letter; writing
the letter ends the turn. Options: the Meta variation (repeat picks, opponent's picks
allowed) and the Void variation (each player places a Void before play).

A turn with a special action is two moves by the same seat: the action, then the
letter (``to_move`` stays on that seat in between). Toppling one's own Wall is a
move of its own too and costs no action. See docs/rules/tic-tac-two.md for every
clause, the decisions where the text is silent, and the move notation; the rules
themselves live in this package's ``engine`` (see its ``__init__``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from ...base import Move, Outcome, Seat, State, Variant, Viewer, outcome_of
from ...chance import normalise_seed
from ...errors import RuleError
from ...results import Names
from ...schema import OUTCOME_SCHEMA, SEAT_SCHEMA, TO_MOVE_SCHEMA, array, integer, nullable
from . import ai, board, describe, engine, notation
from .engine import ACTION_NAMES, ACTIONS, LETTERS, PICKS_EACH
from .geometry import CELL_COUNT, CELLS, LINES, SIDES, border_of, canonical_name
from .state import CELL_CODES, EMPTY, INTERSECT, VOID, TicTacTwoState

_ACTIONS_SCHEMA = array(array({"enum": list(ACTIONS)}, most=PICKS_EACH), 2)


class TicTacTwo(Variant):
    slug = "tic-tac-two"
    name = "Tic Tac Two"
    display_name = "Tic Tac Two"
    summary = "Four in a row on a 4x4 grid, with three drafted special actions each (Swap, Shift, Wall...)."
    board_template = "games/boards/tic-tac-two.html"
    board_script = "js/boards/tic-tac-two.js"
    offers_move_list = True
    presets = describe.PRESETS
    # A draft of special actions, then play: every pick and move has the same limit.
    default_seconds_per_move = 60
    default_seconds_per_game = None
    options_schema = {
        "type": "object",
        "properties": {
            "meta": {
                "title": "Meta variation",
                "description": (
                    "Players may pick special actions the opponent already chose, and may pick the same "
                    "special action more than once (still three picks each). Freedom over fairness."
                ),
                "type": "boolean",
                "default": False,
            },
            "void": {
                "title": "Void variation",
                "description": (
                    "Before play each player places a Void on a square (X first, then O): no letter can be "
                    "written there and it cannot be erased, but it can be Swapped or Shifted."
                ),
                "type": "boolean",
                "default": False,
            },
        },
        "additionalProperties": False,
    }
    state_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "options": {
                "type": "object",
                "properties": {"meta": {"type": "boolean"}, "void": {"type": "boolean"}},
                "required": ["meta", "void"],
                "additionalProperties": False,
            },
            "seed": {"type": "string"},
            "held": _ACTIONS_SCHEMA,
            "spent": _ACTIONS_SCHEMA,
            "cells": array({"enum": sorted(CELL_CODES)}, CELL_COUNT),
            "dibs": array(nullable(SEAT_SCHEMA), CELL_COUNT),
            "walls": array(
                {
                    "type": "object",
                    "properties": {"cell": integer(1, CELL_COUNT), "side": {"enum": list(SIDES)}, "owner": SEAT_SCHEMA},
                    "required": ["cell", "side", "owner"],
                    "additionalProperties": False,
                }
            ),
            "turns": array(integer(0), 2),
            "acted": {"type": "boolean"},
            # What the last turn did, for the board (optional: older dumps have none).
            "recent": array(
                {
                    "type": "object",
                    "properties": {"seat": SEAT_SCHEMA, "move": {"type": "object"}},
                    "required": ["seat", "move"],
                    "additionalProperties": False,
                }
            ),
            "fallen": array(
                {
                    "type": "object",
                    "properties": {
                        "cell": integer(1, CELL_COUNT), "side": {"enum": list(SIDES)}, "owner": SEAT_SCHEMA,
                        "onto": nullable(integer(1, CELL_COUNT)), "erased": {"enum": ["", "X", "O", "XO"]},
                    },
                    "required": ["cell", "side", "owner", "onto", "erased"],
                    "additionalProperties": False,
                }
            ),
            "to_move": {**TO_MOVE_SCHEMA, "maxItems": 1},
            "outcome": OUTCOME_SCHEMA,
        },
        "required": [
            "options", "seed", "held", "spent", "cells", "dibs", "walls", "turns", "acted", "to_move", "outcome",
        ],
        "additionalProperties": False,
    }  # fmt: skip

    # -- the game --------------------------------------------------------------------

    def new_game(
        self, options: Mapping[str, Any] | None = None, seed: int | str | None = None
    ) -> TicTacTwoState:
        opts = self.validate_options(options)
        return TicTacTwoState(
            meta=opts["meta"],
            void=opts["void"],
            seed=normalise_seed(seed),
            held=((), ()),
            spent=((), ()),
            cells=(EMPTY,) * CELL_COUNT,
            dibs=(None,) * CELL_COUNT,
            walls=(),
            turns=(0, 0),
            acted=False,
            to_move=(1,),  # O chooses the first special action
            result=None,
        )

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        assert isinstance(state, TicTacTwoState)
        return [notation.to_move_dict(step) for step in engine.legal_steps(state, seat)]

    def apply(self, state: State, seat: Seat, move: Any) -> TicTacTwoState:
        assert isinstance(state, TicTacTwoState)
        step = notation.parse(move)
        if state.result is not None:
            raise RuleError("game-over", "The game is over; no more moves can be made.")
        if seat not in state.to_move:
            raise RuleError("not-your-turn", "It is not your turn.")
        problem = engine.refusal(state, seat, step)
        if problem is not None:
            raise problem
        return engine.play(state, seat, step)

    def outcome(self, state: State) -> Outcome | None:
        assert isinstance(state, TicTacTwoState)
        return state.result

    def describe_move(self, move: Move) -> str:
        return notation.describe(move)

    # -- what players see ----------------------------------------------------------

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """Everything is public (the draft is written beside the grid), so every viewer
        sees the same view."""
        assert isinstance(state, TicTacTwoState)
        mover = state.to_move[0] if state.to_move else None
        return {
            "variant": self.slug,
            "phase": engine.phase(state),
            "options": {"meta": state.meta, "void": state.void},
            "letters": list(LETTERS),
            "board": [_letters(cell) for cell in state.cells],
            "intersects": [i + 1 for i in CELLS if state.cells[i][:1] == INTERSECT],
            "voids": [i + 1 for i in CELLS if state.cells[i] == VOID],
            "dibs": [
                {"cell": i + 1, "owner": owner} for i, owner in enumerate(state.dibs) if owner is not None
            ],
            "walls": [_wall_dict(border, owner) for border, owner in state.walls],
            "actions": [self._actions_view(state, seat) for seat in (0, 1)],
            "turns": list(state.turns),
            "first_turn": mover is not None and engine.phase(state) == "play" and state.turns[mover] == 0,
            "action_used_this_turn": state.acted,
            "winning_lines": self.winning_lines(state),
            "last_turn": _last_turn(state),
            "to_move": list(state.to_move),
            "outcome": state.result.as_dict() if state.result is not None else None,
        }

    def _actions_view(self, state: TicTacTwoState, seat: Seat) -> dict[str, Any]:
        return {
            "seat": seat,
            "letter": LETTERS[seat],
            "held": list(state.held[seat]),
            "used": list(state.spent[seat]),
            "remaining": engine.remaining_actions(state, seat),
            "names": [ACTION_NAMES[a] for a in state.held[seat]],
        }

    def winning_lines(self, state: TicTacTwoState) -> list[list[int]]:
        """The squares of every completed four in a row (both letters' on a draw by both)."""
        found = []
        for letter in LETTERS:
            for n in engine.complete_lines(state.cells, state.walls, letter):
                found.append([i + 1 for i in LINES[n][0]])
        return found

    # -- storage ---------------------------------------------------------------------

    def dump(self, state: State) -> dict[str, Any]:
        assert isinstance(state, TicTacTwoState)
        return {
            "options": {"meta": state.meta, "void": state.void},
            "seed": state.seed,
            "held": [list(h) for h in state.held],
            "spent": [list(s) for s in state.spent],
            "cells": list(state.cells),
            "dibs": list(state.dibs),
            "walls": [_wall_dict(border, owner) for border, owner in state.walls],
            "turns": list(state.turns),
            "acted": state.acted,
            "to_move": list(state.to_move),
            "outcome": state.result.as_dict() if state.result is not None else None,
            **_last_turn(state),
        }

    def load(self, data: Mapping[str, Any]) -> TicTacTwoState:
        held = (tuple(data["held"][0]), tuple(data["held"][1]))
        spent = (tuple(data["spent"][0]), tuple(data["spent"][1]))
        if any(Counter(spent[seat]) - Counter(held[seat]) for seat in (0, 1)):
            raise RuleError("bad-state", "A stored Tic Tac Two game has used special actions nobody held.")
        result = outcome_of(data["outcome"])
        if (result is None) != bool(data["to_move"]):
            raise RuleError("bad-state", "A running game has a seat to move, a finished one none.")
        walls = [(border_of(wall["cell"] - 1, wall["side"]), wall["owner"]) for wall in data["walls"]]
        try:
            recent = tuple((entry["seat"], notation.parse(entry["move"])) for entry in data.get("recent", []))
        except RuleError as err:
            raise RuleError(
                "bad-state", f"A stored Tic Tac Two game's last turn is damaged ({err})."
            ) from None
        fallen = tuple(
            (
                border_of(f["cell"] - 1, f["side"]),
                f["owner"],
                None if f["onto"] is None else f["onto"] - 1,
                f["erased"],
            )
            for f in data.get("fallen", [])
        )
        return TicTacTwoState(
            meta=data["options"]["meta"],
            void=data["options"]["void"],
            seed=data["seed"],
            held=held,
            spent=spent,
            cells=tuple(data["cells"]),
            dibs=tuple(data["dibs"]),
            walls=tuple(sorted(walls)),
            turns=(data["turns"][0], data["turns"][1]),
            acted=data["acted"],
            to_move=tuple(data["to_move"]),
            result=result,
            recent=recent,
            fallen=fallen,
        )

    # -- the other parts of the package ----------------------------------------------

    def strong_move(self, state: State, seat: Seat, rng: random.Random) -> Move:
        assert isinstance(state, TicTacTwoState)
        return ai.strong_move(self, state, seat, rng)

    def casual_move(self, state: State, seat: Seat, rng: random.Random) -> Move:
        assert isinstance(state, TicTacTwoState)
        return ai.casual_move(self, state, seat, rng)

    def describe_rules(self, options: Mapping[str, Any]) -> list[str]:
        return describe.describe_rules(options)

    def opening_words(self, options: Mapping[str, Any]) -> str:
        return describe.opening_words(self.validate_options(options))

    def describe_move_line(self, move: Move, seat: Seat, view: Mapping[str, Any], ply: int) -> str:
        return describe.move_line(move, seat, view, ply)

    def describe_result(self, view: Mapping[str, Any], result: Mapping[str, Any], names: Names = None) -> str:
        return describe.describe_result(view, result, names)

    def build_board(
        self, view: dict[str, Any], legal: list[dict[str, Any]], seat: Viewer, my_turn: bool
    ) -> dict[str, Any]:
        return board.build_board(view, legal, seat, my_turn)


def _letters(cell: str) -> str | None:
    """A square's letters for the view: "X", "O", "XO" (an Intersect holding both) or None."""
    letters = "".join(x for x in LETTERS if x in cell)
    return letters or None


def _wall_dict(border: tuple[str, int, int], owner: Seat) -> dict[str, Any]:
    i, side = canonical_name(border)
    return {"cell": i + 1, "side": side, "owner": owner}


def _last_turn(state: TicTacTwoState) -> dict[str, Any]:
    """What the last turn did (``recent``, ``fallen``): its moves, and the Walls that fell."""
    fallen = []
    for border, owner, onto, erased in state.fallen:
        i, side = canonical_name(border)
        fallen.append(
            {
                "cell": i + 1,
                "side": side,
                "owner": owner,
                "onto": None if onto is None else onto + 1,
                "erased": erased,
            }
        )
    return {
        "recent": [{"seat": seat, "move": notation.to_move_dict(step)} for seat, step in state.recent],
        "fallen": fallen,
    }
