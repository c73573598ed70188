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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from .. import chance
from ..base import Move, Outcome, Seat, State, Variant, Viewer, require_int, require_mapping, require_seat
from ..errors import RuleError

SQUARES = tuple(range(1, 10))
CENTER = 5
ROUNDS = 3
PLAN_LENGTH = 3
MARKS = ("X", "O")  # seat 0 writes X, seat 1 writes O

#: The eight three-in-a-row lines, as squares 1..9.
LINES: tuple[tuple[int, int, int], ...] = (
    (1, 2, 3), (4, 5, 6), (7, 8, 9),
    (1, 4, 7), (2, 5, 8), (3, 6, 9),
    (1, 5, 9), (3, 5, 7),
)  # fmt: skip
LINE_SETS = frozenset(frozenset(line) for line in LINES)

# How one move of a pair resolved.
PLACED = "placed"  # the mark went in
INVALID = "invalid"  # the square was already taken (by anyone, at any earlier time)
BOUNCED = "bounced"  # both chose the same empty square in the same pair: neither goes in

Plan = tuple[int, int, int]
Board = tuple[int | None, ...]  # nine entries: 0 (X), 1 (O) or None, index = square - 1


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


# -- pure rule helpers (also used by the AI's tests) ---------------------------------


def has_line(board: Sequence[int | None], seat: Seat) -> bool:
    """Whether ``seat`` has three in a row on ``board``."""
    return any(all(board[sq - 1] == seat for sq in line) for line in LINES)


def resolve_plans(board: Board, plans: tuple[Plan, Plan]) -> tuple[Board, tuple[tuple[str, str], ...]]:
    """Resolve two revealed plans in simultaneous consecutive pairs.

    Returns the new board and, per pair, how each seat's move went. The rule is
    symmetric in the seats: swapping the plans swaps the marks and the results.
    """
    cells = list(board)
    results: list[tuple[str, str]] = []
    for step in range(PLAN_LENGTH):
        first, second = plans[0][step], plans[1][step]
        if first == second:
            # Same square at the same moment: both bounce if it is free, else both are late.
            outcome = BOUNCED if cells[first - 1] is None else INVALID
            results.append((outcome, outcome))
            continue
        # Different squares: placed together, so neither can block the other.
        free = (cells[first - 1] is None, cells[second - 1] is None)
        if free[0]:
            cells[first - 1] = 0
        if free[1]:
            cells[second - 1] = 1
        results.append((PLACED if free[0] else INVALID, PLACED if free[1] else INVALID))
    return tuple(cells), tuple(results)


def plan_problem(round_number: int, plan: Plan, own_round1: Sequence[int]) -> RuleError | None:
    """Why ``plan`` breaks the round's constraint, or None if it is a legal plan.

    ``own_round1`` is the plan this player wrote in round 1 (needed in round 2).
    """
    if round_number == 1:
        if len(set(plan)) < PLAN_LENGTH:
            return RuleError("repeated-square", "In round 1 you can't write the same number twice.")
        if CENTER in plan:
            return RuleError("center-in-round-1", "In round 1 you can't choose 5, the center square.")
        if frozenset(plan) in LINE_SETS:
            return RuleError(
                "three-in-a-row-in-round-1",
                "In round 1 you can't choose a three-in-a-row win; round 1 is for setting yourself up.",
            )
    elif round_number == 2:
        reused = [sq for sq in plan if sq in own_round1]
        if reused:
            return RuleError(
                "chosen-in-round-1",
                f"In round 2 you can't choose a number you chose in round 1 ({reused[0]}).",
            )
        if len(set(plan)) < PLAN_LENGTH:
            return RuleError(
                "repeated-square",
                "In round 2 you can't write the same number twice; repeats are allowed only in round 3.",
            )
    return None


@lru_cache(maxsize=64)
def legal_plans(round_number: int, own_round1: tuple[int, ...]) -> tuple[Plan, ...]:
    """Every legal plan (ordered triple) of a round, in ascending order."""
    plans = ((a, b, c) for a in SQUARES for b in SQUARES for c in SQUARES)
    return tuple(p for p in plans if plan_problem(round_number, p, own_round1) is None)


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


class TacticToe(Variant):
    slug = "tactic-toe"
    name = "Tactic-Toe"
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "title": "Tactic-Toe house rules",
        "description": "Tactic-Toe has no house rules: the three rounds are played as written.",
        "properties": {},
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

    def random_move(self, state: State, seat: Seat, rng: Any) -> Move:
        assert isinstance(state, TacticToeState)
        if seat not in state.to_move:
            raise RuleError("not-your-turn", "You have no move to make now.")
        plans = legal_plans(state.round, self.own_round1_plan(state, seat))
        return {"plan": list(rng.choice(plans))}

    def apply(self, state: State, seat: Seat, move: Any) -> TacticToeState:
        assert isinstance(state, TacticToeState)
        seat = require_seat(seat)
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
        except (KeyError, IndexError, TypeError, ValueError, RuleError) as exc:
            raise RuleError("bad-state", f"This is not a saved Tactic-Toe game ({exc}).") from exc
        if self.dump(state) != stored:
            raise RuleError("bad-state", "This saved Tactic-Toe game is inconsistent.")
        return state


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
