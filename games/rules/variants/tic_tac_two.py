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
themselves live in ``tic_tac_two_parts``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import Move, Outcome, Seat, State, Variant, Viewer, require_seat
from ..chance import normalise_seed
from ..errors import RuleError
from .tic_tac_two_parts import engine
from .tic_tac_two_parts.engine import ACTION_NAMES, ACTIONS, LETTERS, PICKS_EACH
from .tic_tac_two_parts.geometry import CELL_COUNT, CELLS, LINES, SIDES, border_of, canonical_name
from .tic_tac_two_parts.notation import describe, parse, to_move_dict
from .tic_tac_two_parts.state import CELL_CODES, EMPTY, INTERSECT, VOID, TicTacTwoState


class TicTacTwo(Variant):
    slug = "tic-tac-two"
    name = "Tic Tac Two"
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
        return [to_move_dict(step) for step in engine.legal_steps(state, seat)]

    def apply(self, state: State, seat: Seat, move: Any) -> TicTacTwoState:
        assert isinstance(state, TicTacTwoState)
        step = parse(move)
        if state.result is not None:
            raise RuleError("game-over", "The game is over; no more moves can be made.")
        if seat not in state.to_move:
            require_seat(seat)
            raise RuleError("not-your-turn", "It is not your turn.")
        problem = engine.refusal(state, seat, step)
        if problem is not None:
            raise problem
        return engine.play(state, seat, step)

    def outcome(self, state: State) -> Outcome | None:
        assert isinstance(state, TicTacTwoState)
        return state.result

    def describe_move(self, move: Move) -> str:
        return describe(move)

    # -- what players see ----------------------------------------------------------

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """Everything is public (the draft is written beside the grid), so every viewer
        sees the same view."""
        assert isinstance(state, TicTacTwoState)
        if viewer is not None:
            require_seat(viewer)
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
        }

    def load(self, data: Mapping[str, Any]) -> TicTacTwoState:
        try:
            state = _load(data)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, RuleError) as exc:
            raise RuleError("bad-state", f"This is not a stored Tic Tac Two game ({exc}).") from exc
        return state


def _letters(cell: str) -> str | None:
    """A square's letters for the view: "X", "O", "XO" (an Intersect holding both) or None."""
    letters = "".join(x for x in LETTERS if x in cell)
    return letters or None


def _wall_dict(border: tuple[str, int, int], owner: Seat) -> dict[str, Any]:
    i, side = canonical_name(border)
    return {"cell": i + 1, "side": side, "owner": owner}


def _load(data: Mapping[str, Any]) -> TicTacTwoState:
    def flag(value: Any) -> bool:
        if not isinstance(value, bool):
            raise ValueError("expected true or false")
        return value

    def seat_value(value: Any) -> Seat:
        if isinstance(value, bool) or value not in (0, 1):
            raise ValueError("expected a seat")
        return int(value)

    def actions(value: Any) -> tuple[str, ...]:
        names = tuple(value)
        if len(names) > PICKS_EACH or any(not isinstance(a, str) or a not in ACTIONS for a in names):
            raise ValueError("bad special actions")
        return names

    options = data["options"]
    held = (actions(data["held"][0]), actions(data["held"][1]))
    spent = (actions(data["spent"][0]), actions(data["spent"][1]))
    cells = tuple(data["cells"])
    dibs = tuple(None if d is None else seat_value(d) for d in data["dibs"])
    if len(cells) != CELL_COUNT or len(dibs) != CELL_COUNT or any(c not in CELL_CODES for c in cells):
        raise ValueError("bad board")
    walls = []
    for wall in data["walls"]:
        cell, side = wall["cell"], wall["side"]
        if isinstance(cell, bool) or cell not in range(1, CELL_COUNT + 1) or side not in SIDES:
            raise ValueError("bad wall")
        walls.append((border_of(cell - 1, side), seat_value(wall["owner"])))
    turns = (int(data["turns"][0]), int(data["turns"][1]))
    to_move = tuple(seat_value(s) for s in data["to_move"])
    outcome = data["outcome"]
    result = None
    if outcome is not None:
        winner = outcome["winner"]
        result = Outcome(
            result=str(outcome["result"]),
            winner=None if winner is None else seat_value(winner),
            scores=None,
            reason=str(outcome["reason"]),
        )
    seed = data["seed"]
    if not isinstance(seed, str):
        raise ValueError("bad seed")
    return TicTacTwoState(
        meta=flag(options["meta"]),
        void=flag(options["void"]),
        seed=seed,
        held=held,
        spent=spent,
        cells=cells,
        dibs=dibs,
        walls=tuple(sorted(walls)),
        turns=turns,
        acted=flag(data["acted"]),
        to_move=to_move,
        result=result,
    )
