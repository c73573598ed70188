"""Rock, Paper, Scissors: the decider the texts use to pick Player One.

From the footnote of the Tic Tac Toe FAQ (seed text 000): both players throw at once;
paper beats rock, rock beats scissors, scissors beat paper. T-Tic-T-Tac-Toe rule
2.02(b) adds what the footnote leaves open: a tie is played again until a winner is
decided.

Both seats act at the same time (``to_move == (0, 1)`` until both have thrown). A
throw stays secret until the other one is in: only its owner sees it; the other seat
and observers see only that a throw was submitted. A tie starts a new throw; every
finished throw is kept, visible to all, in the history.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from operator import itemgetter
from typing import Any

from ...base import Move, Outcome, Seat, State, Variant, Viewer, require_mapping
from ...chance import normalise_seed
from ...errors import RuleError
from . import ai, board, describe
from .throws import BEATS, THROWS, Pair, Throw, winner_of

_Fields = tuple[tuple[tuple[Throw, Throw], ...], Pair, str, tuple[Seat, ...]]


class RockPaperScissorsState(State, _Fields):
    """(history, pending, seed, to_move): immutable.

    ``history``: every completed throw so far as (seat 0's, seat 1's), ties included;
    the last one decides once the game is over. ``pending``: the current throw's
    choices (None until submitted). ``to_move``: the seats still to throw, () once
    decided (kept in the state so reading it costs nothing).
    """

    __slots__ = ()

    history: tuple[tuple[Throw, Throw], ...] = property(itemgetter(0))  # type: ignore[assignment]
    pending: Pair = property(itemgetter(1))  # type: ignore[assignment]
    seed: str = property(itemgetter(2))  # type: ignore[assignment]
    to_move: tuple[Seat, ...] = property(itemgetter(3))  # type: ignore[assignment]


BOTH: tuple[Seat, ...] = (0, 1)
WAITING_FOR: dict[tuple[bool, bool], tuple[Seat, ...]] = {
    (False, False): BOTH,
    (True, False): (1,),
    (False, True): (0,),
}


def _state(history: tuple[tuple[Throw, Throw], ...], pending: Pair, seed: str) -> RockPaperScissorsState:
    if history and history[-1][0] != history[-1][1]:
        to_move: tuple[Seat, ...] = ()  # decided
    else:
        to_move = WAITING_FOR[(pending[0] is not None, pending[1] is not None)]
    return tuple.__new__(RockPaperScissorsState, (history, pending, seed, to_move))


class RockPaperScissors(Variant):
    slug = "rock-paper-scissors"
    name = "Rock, Paper, Scissors"
    display_name = "Rock-paper-scissors"
    summary = "Both throw at once: paper covers rock, rock pummels scissors, scissors cut paper."
    board_template = "games/boards/rock-paper-scissors.html"
    presets = describe.PRESETS
    # A throw is a moment's choice.
    default_seconds_per_move = 30
    default_seconds_per_game = None
    options_schema = {"type": "object", "properties": {}, "additionalProperties": False}
    state_schema = {
        "type": "object",
        "properties": {
            "history": {
                "type": "array",
                "items": {"type": "array", "items": {"enum": list(THROWS)}, "minItems": 2, "maxItems": 2},
            },
            "pending": {"type": "array", "items": {"enum": [None, *THROWS]}, "minItems": 2, "maxItems": 2},
            "seed": {"type": "string"},
        },
        "required": ["history", "pending", "seed"],
        "additionalProperties": False,
    }

    def new_game(
        self, options: Mapping[str, Any] | None = None, seed: int | str | None = None
    ) -> RockPaperScissorsState:
        if options is not None and not (isinstance(options, Mapping) and not options):
            self.validate_options(options)  # there are no house rules: only {} or None pass
        # No chance in the game itself; the seed is kept so every game stores one alike.
        return _state((), (None, None), normalise_seed(seed))

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        if seat not in state.to_move:
            return []
        return [{"throw": throw} for throw in THROWS]

    def apply(self, state: State, seat: Seat, move: Any) -> RockPaperScissorsState:
        assert isinstance(state, RockPaperScissorsState)
        require_mapping(move, ("throw",))
        throw = move["throw"]
        if not isinstance(throw, str) or throw not in THROWS:
            raise RuleError("unknown-throw", "Throw rock, paper or scissors.")
        if not state.to_move:
            raise RuleError("game-over", "Rock, paper, scissors is decided; no more throws.")
        if seat not in state.to_move:
            raise RuleError("already-thrown", "You have thrown already; wait for the other player.")
        pending = list(state.pending)
        pending[seat] = throw
        first, second = pending
        if first is None or second is None:
            return _state(state.history, (first, second), state.seed)
        # Both are in: the throw is revealed. A tie is thrown again (a fresh pending pair).
        return _state((*state.history, (first, second)), (None, None), state.seed)

    def outcome(self, state: State) -> Outcome | None:
        assert isinstance(state, RockPaperScissorsState)
        if not state.history:
            return None
        a, b = state.history[-1]
        winner = winner_of(a, b)
        if winner is None:
            return None
        win, lose = (a, b) if winner == 0 else (b, a)
        verb = BEATS[win][1]
        return Outcome(result="win", winner=winner, reason=f"{win.capitalize()} {verb} {lose}.")

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        assert isinstance(state, RockPaperScissorsState)
        outcome = self.outcome(state)
        return {
            "variant": self.slug,
            "history": [list(pair) for pair in state.history],
            # The current throw: its owner sees it, everyone else only that it is in.
            "submitted": [throw is not None for throw in state.pending],
            "my_throw": state.pending[viewer] if viewer in (0, 1) else None,
            "to_move": list(state.to_move),
            "outcome": outcome.as_dict() if outcome is not None else None,
        }

    def dump(self, state: State) -> dict[str, Any]:
        assert isinstance(state, RockPaperScissorsState)
        return {
            "history": [list(pair) for pair in state.history],
            "pending": list(state.pending),
            "seed": state.seed,
        }

    def load(self, data: Mapping[str, Any]) -> RockPaperScissorsState:
        history = tuple((a, b) for a, b in data["history"])
        first, second = data["pending"]
        if first is not None and second is not None:
            raise RuleError("bad-state", "Both throws are in, yet not revealed.")
        # Only a tie is thrown again, and nothing is thrown once one side has won.
        if any(a != b for a, b in history[:-1]):
            raise RuleError("bad-state", "A throw follows the one that decided the game.")
        if history and history[-1][0] != history[-1][1] and (first is not None or second is not None):
            raise RuleError("bad-state", "A throw follows the one that decided the game.")
        return _state(history, (first, second), data["seed"])

    def random_move(self, state: State, seat: Seat, rng: random.Random) -> Move:
        if seat not in state.to_move:
            raise RuleError("not-your-turn", "You have no throw to make now.")
        return {"throw": rng.choice(THROWS)}

    def describe_move(self, move: Move) -> str:
        return str(move.get("throw"))

    # -- the other parts of the package ----------------------------------------------------

    def strong_move(self, state: State, seat: Seat, rng: random.Random) -> Move:
        return ai.strong_move(self, state, seat, rng)

    def casual_move(self, state: State, seat: Seat, rng: random.Random) -> Move:
        return ai.casual_move(self, state, seat, rng)

    def describe_rules(self, options: Mapping[str, Any]) -> list[str]:
        return describe.describe_rules(options)

    def build_board(
        self, view: dict[str, Any], legal: list[dict[str, Any]], seat: Viewer, my_turn: bool
    ) -> dict[str, Any]:
        return board.build_board(view, legal, seat, my_turn)
