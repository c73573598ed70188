"""Tactic-Toe (David Dickerson, 2006): tic-tac-toe planned three moves at a time.

Both players secretly write a plan of three squares, the plans are revealed at once
and resolved in simultaneous consecutive pairs (first squares together, then the
second squares, then the third). A square already taken makes the later move
invalid; the same empty square chosen by both in the same pair "bounces out" both.
Three rounds, each with its own constraints on the plan; the winner is checked after
each round. See docs/rules/tactic-toe.md for every clause and decision.

Seat 0 (Player One, the text's "Player A") writes X; seat 1 ("Player B") writes O.
Squares are numbered 1..9 from the upper left, row by row (5 is the centre).
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ... import chance
from ...base import Move, Outcome, Seat, State, Variant, Viewer, require_int, require_mapping
from ...errors import RuleError
from ...results import Names
from ...schema import OUTCOME_SCHEMA, TO_MOVE_SCHEMA, array, integer, nullable
from . import ai, board, describe
from .plans import (
    BOUNCED,
    CENTER,
    INVALID,
    MARKS,
    PLACED,
    PLAN_LENGTH,
    ROUNDS,
    Board,
    Plan,
    has_line,
    legal_plans,
    plan_problem,
    resolve_plans,
)


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A revealed round: both plans and how each of the three pairs resolved."""

    number: int
    plans: tuple[Plan, Plan]
    #: results[step] = (result of seat 0's move, result of seat 1's move)
    results: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class TacticToeState(State):
    seed: str
    #: The round being planned now (1..3); once over, the last round played.
    round: int
    board: Board
    #: Submitted but unrevealed plans, per seat (None = not submitted yet).
    pending: tuple[Plan | None, Plan | None]
    history: tuple[RoundRecord, ...]
    to_move: tuple[Seat, ...]
    result: Outcome | None


def _final_outcome(board: Board, round_number: int) -> Outcome | None:
    """How the game ends after a resolved round, or None if another round follows."""
    lines = (has_line(board, 0), has_line(board, 1))
    if all(lines):
        return Outcome("tie", None, None, "Both players have three in a row: a tie game.")
    if any(lines):
        winner = 0 if lines[0] else 1
        return Outcome("win", winner, None, f"{MARKS[winner]} has three in a row.")
    if round_number >= ROUNDS:
        return Outcome("draw", None, None, "Nobody has three in a row after round 3: a cat's game.")
    if all(cell is not None for cell in board):
        return Outcome(
            "draw",
            None,
            None,
            f"The grid is full after round {round_number} with no three in a row: a cat's game.",
        )
    return None


def _parse_plan(move: Any) -> Plan:
    """The plan of a move ``{"plan": [a, b, c]}``; RuleError for anything else."""
    mapping = require_mapping(move, ["plan"])
    raw = mapping["plan"]
    if not isinstance(raw, (list, tuple)) or len(raw) != PLAN_LENGTH:
        raise RuleError("malformed-move", 'A plan is three squares from 1 to 9, such as {"plan": [2, 3, 7]}.')
    a, b, c = (require_int(value, 1, 9, "square") for value in raw)
    return (a, b, c)


def _board_marks(board: Board) -> list[str | None]:
    return [None if cell is None else MARKS[cell] for cell in board]


_PLAN_SCHEMA = array(integer(1, 9), PLAN_LENGTH)


class TacticToe(Variant):
    slug = "tactic-toe"
    name = "Tactic-Toe"
    display_name = "Tactic-Toe"
    summary = "Both plan three squares in secret, then the plans are played pair by pair; three rounds."
    board_template = "games/boards/tactic-toe.html"
    presets = describe.PRESETS
    # Both write a plan of three squares at once: the same limit per plan for both.
    default_seconds_per_move = 2 * 60
    default_seconds_per_game = None
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "title": "Tactic-Toe house rules",
        "description": "Tactic-Toe has no house rules: the three rounds are played as written.",
        "properties": {},
        "additionalProperties": False,
    }
    # Typed in full: load replays the plans and compares the rest by equality, where True == 1.
    state_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "seed": {"type": "string"},
            "round": integer(1, ROUNDS),
            "board": array({"enum": [None, *MARKS]}, 9),
            "pending": array(nullable(_PLAN_SCHEMA), 2),
            "rounds": array(
                {
                    "type": "object",
                    "properties": {
                        "round": integer(1, ROUNDS),
                        "plans": array(_PLAN_SCHEMA, 2),
                        "pairs": array(
                            {
                                "type": "object",
                                "properties": {
                                    "step": integer(1, PLAN_LENGTH),
                                    "squares": array(integer(1, 9), 2),
                                    "results": array({"enum": [PLACED, INVALID, BOUNCED]}, 2),
                                },
                                "required": ["step", "squares", "results"],
                                "additionalProperties": False,
                            },
                            PLAN_LENGTH,
                        ),
                    },
                    "required": ["round", "plans", "pairs"],
                    "additionalProperties": False,
                },
                most=ROUNDS,
            ),
            "to_move": TO_MOVE_SCHEMA,
            "outcome": OUTCOME_SCHEMA,
        },
        "required": ["seed", "round", "board", "pending", "rounds", "to_move", "outcome"],
        "additionalProperties": False,
    }

    # -- the game --------------------------------------------------------------

    def new_game(
        self, options: Mapping[str, Any] | None = None, seed: int | str | None = None
    ) -> TacticToeState:
        self.validate_options(options)
        return TacticToeState(
            seed=chance.normalise_seed(seed),
            round=1,
            board=(None,) * 9,
            pending=(None, None),
            history=(),
            to_move=(0, 1),
            result=None,
        )

    def own_round1_plan(self, state: TacticToeState, seat: Seat) -> tuple[int, ...]:
        """The squares ``seat`` wrote in round 1 (empty before round 1 is revealed)."""
        return state.history[0].plans[seat] if state.history else ()

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        assert isinstance(state, TacticToeState)
        if seat not in state.to_move:
            return []
        plans = legal_plans(state.round, self.own_round1_plan(state, seat))
        return [{"plan": list(plan)} for plan in plans]

    def random_move(self, state: State, seat: Seat, rng: random.Random) -> Move:
        assert isinstance(state, TacticToeState)
        if seat not in state.to_move:
            raise RuleError("not-your-turn", "You have no move to make now.")
        plans = legal_plans(state.round, self.own_round1_plan(state, seat))
        return {"plan": list(rng.choice(plans))}

    def apply(self, state: State, seat: Seat, move: Any) -> TacticToeState:
        assert isinstance(state, TacticToeState)
        if state.result is not None:
            raise RuleError("game-over", "The game is over.")
        if state.pending[seat] is not None:
            raise RuleError("already-submitted", f"You already wrote your plan for round {state.round}.")
        if seat not in state.to_move:
            raise RuleError("not-your-turn", "It is not your turn.")
        plan = _parse_plan(move)
        problem = plan_problem(state.round, plan, self.own_round1_plan(state, seat))
        if problem is not None:
            raise problem
        pending = (plan, state.pending[1]) if seat == 0 else (state.pending[0], plan)
        if pending[0] is None or pending[1] is None:
            waiting = tuple(s for s in (0, 1) if pending[s] is None)
            return TacticToeState(state.seed, state.round, state.board, pending, state.history, waiting, None)
        # Both plans are in: reveal and resolve the round now.
        plans = (pending[0], pending[1])
        board, results = resolve_plans(state.board, plans)
        history = state.history + (RoundRecord(state.round, plans, results),)
        result = _final_outcome(board, state.round)
        if result is not None:
            return TacticToeState(state.seed, state.round, board, (None, None), history, (), result)
        return TacticToeState(state.seed, state.round + 1, board, (None, None), history, (0, 1), None)

    def outcome(self, state: State) -> Outcome | None:
        assert isinstance(state, TacticToeState)
        return state.result

    # -- what players see --------------------------------------------------------

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        assert isinstance(state, TacticToeState)
        submitted = [plan is not None for plan in state.pending]
        view: dict[str, Any] = {
            "variant": self.slug,
            "board": _board_marks(state.board),
            "marks": list(MARKS),
            "round": state.round,
            "rounds_total": ROUNDS,
            "to_move": list(state.to_move),
            "submitted": submitted,
            "rounds": [_round_dict(record) for record in state.history],
            "outcome": state.result.as_dict() if state.result is not None else None,
        }
        if viewer in (0, 1):
            own = state.pending[viewer]
            view["you"] = viewer
            view["your_mark"] = MARKS[viewer]
            # Only the owner ever sees an unrevealed plan.
            view["your_plan"] = list(own) if own is not None else None
            view["forbidden"] = self._forbidden_squares(state, viewer)
        return view

    def _forbidden_squares(self, state: TacticToeState, seat: Seat) -> list[int]:
        """Squares ``seat`` may not write at all this round (a hint for the UI)."""
        if state.result is not None:
            return []
        if state.round == 1:
            return [CENTER]
        if state.round == 2:
            return sorted(self.own_round1_plan(state, seat))
        return []

    def describe_move(self, move: Move) -> str:
        try:
            return ", ".join(str(sq) for sq in _parse_plan(move))
        except RuleError:
            return str(move)

    # -- storage -----------------------------------------------------------------

    def dump(self, state: State) -> dict[str, Any]:
        assert isinstance(state, TacticToeState)
        return {
            "seed": state.seed,
            "round": state.round,
            "board": _board_marks(state.board),
            "pending": [list(plan) if plan is not None else None for plan in state.pending],
            "rounds": [_round_dict(record) for record in state.history],
            "to_move": list(state.to_move),
            "outcome": state.result.as_dict() if state.result is not None else None,
        }

    def load(self, data: Mapping[str, Any]) -> TacticToeState:
        """Rebuild by replaying the stored plans, then check it matches what was stored."""
        try:
            state = self.new_game(None, seed=data["seed"])
            for record in data["rounds"]:
                for seat in (0, 1):
                    state = self.apply(state, seat, {"plan": record["plans"][seat]})
            for seat in (0, 1):
                if data["pending"][seat] is not None:
                    state = self.apply(state, seat, {"plan": data["pending"][seat]})
            stored = json.loads(json.dumps(data))
        except (TypeError, ValueError, RuleError) as exc:
            raise RuleError("bad-state", f"This is not a saved Tactic-Toe game ({exc}).") from exc
        if self.dump(state) != stored:
            raise RuleError("bad-state", "This saved Tactic-Toe game is inconsistent.")
        return state

    # -- the other parts of the package --------------------------------------------

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


def _round_dict(record: RoundRecord) -> dict[str, Any]:
    return {
        "round": record.number,
        "plans": [list(record.plans[0]), list(record.plans[1])],
        "pairs": [
            {
                "step": step + 1,
                "squares": [record.plans[0][step], record.plans[1][step]],
                "results": list(res),
            }
            for step, res in enumerate(record.results)
        ],
    }
