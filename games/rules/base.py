"""The engine's vocabulary: variant, state, move, outcome.

A *Variant* is a stateless rule book; a *State* is an immutable value; a *move* is a
JSON-ready dict; applying a move returns a new state. Seats are 0 (Player One) and 1
(Player Two); ``None`` as a viewer is an observer.
"""

from __future__ import annotations

import copy
import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import jsonschema

from .errors import RuleError

Seat = int
Move = dict[str, Any]
Viewer = int | None

SEATS: tuple[Seat, Seat] = (0, 1)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``result`` is "win", "draw" or "tie" (a tie where a text defines one apart from a
    draw, as Tactic-Toe's "tie game"); ``winner`` is a seat or None; ``scores`` are
    points per seat where the rule set counts points, else None.
    """

    result: str
    winner: Seat | None = None
    scores: tuple[int, int] | None = None
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "winner": self.winner,
            "scores": list(self.scores) if self.scores is not None else None,
            "reason": self.reason,
        }


class State:
    """Base of every variant's state. Subclasses are immutable values.

    ``to_move`` is the tuple of seats that must act now: one seat in turn-based play,
    both when moves are simultaneous, ``()`` once the game is over.
    """

    __slots__ = ()
    to_move: tuple[Seat, ...]


class Variant(ABC):
    """A rule set. Stateless: every method takes the state it works on."""

    slug: ClassVar[str]
    name: ClassVar[str]
    #: JSON Schema (draft 2020-12) of the house-rule options, with defaults.
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {},
        "additionalProperties": False,
    }
    #: True where legal_moves would be too large to build (see the variant's docs).
    huge_move_space: ClassVar[bool] = False

    # -- options ---------------------------------------------------------------

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Every variant's apply and legal_moves get the same seat check first, so no
        # rule set can be fooled by a seat of True, 1.0 or "0" from untrusted JSON.
        super().__init_subclass__(**kwargs)
        for name in ("apply", "legal_moves"):
            method = cls.__dict__.get(name)
            if method is not None and not getattr(method, "_checks_seat", False):
                setattr(cls, name, _with_seat_check(method))

    def default_options(self) -> dict[str, Any]:
        props = self.options_schema.get("properties", {})
        return {key: copy.deepcopy(spec["default"]) for key, spec in props.items() if "default" in spec}

    def validate_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill in defaults and check house rules; raise RuleError("bad-options")."""
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise RuleError("bad-options", "House rules must be given as named options.")
        merged = self.default_options()
        merged.update(copy.deepcopy(dict(options)))
        # The variant's own checks come first: their messages speak the rules' words.
        self.check_options(merged)
        error = jsonschema.exceptions.best_match(self._options_validator().iter_errors(merged))
        if error is not None:
            where = ".".join(str(p) for p in error.absolute_path) or "options"
            raise RuleError("bad-options", f"House rule {where!s}: {error.message}")
        return merged

    @classmethod
    def _options_validator(cls) -> jsonschema.Draft202012Validator:
        # Compiled once per variant class: validating options happens on every new game.
        validator = cls.__dict__.get("_compiled_options_validator")
        if validator is None:
            validator = jsonschema.Draft202012Validator(cls.options_schema)
            cls._compiled_options_validator = validator  # type: ignore[attr-defined]
        return validator

    def check_options(self, options: dict[str, Any]) -> None:
        """Variant-specific checks with players' words; raise RuleError("bad-options")."""

    # -- the game --------------------------------------------------------------

    @abstractmethod
    def new_game(self, options: Mapping[str, Any] | None = None, seed: int | str | None = None) -> State:
        """The starting state. Bad options raise RuleError."""

    @abstractmethod
    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        """Every legal move of ``seat`` now (empty when it is not that seat's turn)."""

    @abstractmethod
    def apply(self, state: State, seat: Seat, move: Any) -> State:
        """A new state with ``move`` played; never changes ``state``.

        An illegal or malformed move raises RuleError with a stable code.
        """

    @abstractmethod
    def outcome(self, state: State) -> Outcome | None:
        """None while the game runs, else how it ended."""

    @abstractmethod
    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        """What ``viewer`` (a seat, or None for an observer) may see, JSON-ready."""

    @abstractmethod
    def dump(self, state: State) -> dict[str, Any]:
        """The whole state as JSON-ready data (secrets included: server side only)."""

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> State:
        """The state back from ``dump``'s data."""

    # -- helpers every variant gets --------------------------------------------

    def random_move(self, state: State, seat: Seat, rng: random.Random) -> Move:
        """A uniformly chosen legal move. Variants with a huge move space override it."""
        moves = self.legal_moves(state, seat)
        if not moves:
            raise RuleError("not-your-turn", "You have no move to make now.")
        return rng.choice(moves)

    def describe_move(self, move: Move) -> str:
        """The move in the variant's notation, for game records."""
        return str(move)

    def replay(
        self,
        moves: Iterable[tuple[Seat, Move]],
        options: Mapping[str, Any] | None = None,
        seed: int | str | None = None,
    ) -> State:
        """The state reached by playing ``moves`` (seat, move) from a new game."""
        state = self.new_game(options, seed)
        for seat, move in moves:
            state = self.apply(state, seat, move)
        return state

    def is_over(self, state: State) -> bool:
        return not state.to_move

    def __repr__(self) -> str:
        return f"<Variant {self.slug}>"


# -- small checks shared by the variants' move parsers -----------------------------


def _with_seat_check(method: Any) -> Any:
    @functools.wraps(method)
    def checked(self: Variant, state: State, seat: Any, *args: Any) -> Any:
        return method(self, state, require_seat(seat), *args)

    checked._checks_seat = True  # type: ignore[attr-defined]
    return checked


def require_mapping(move: Any, keys: Sequence[str]) -> Mapping[str, Any]:
    """The move as a mapping holding exactly ``keys``; RuleError("malformed-move") if not."""
    if not isinstance(move, Mapping):
        raise RuleError("malformed-move", "A move must be an object such as " + _example(keys) + ".")
    missing = [k for k in keys if k not in move]
    extra = [k for k in move if k not in keys]
    if missing or extra:
        raise RuleError("malformed-move", "A move must be an object such as " + _example(keys) + ".")
    return move


def require_int(value: Any, low: int, high: int, what: str) -> int:
    """``value`` as a whole number from ``low`` to ``high``; RuleError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError("malformed-move", f"The {what} must be a whole number from {low} to {high}.")
    if not low <= value <= high:
        raise RuleError("out-of-range", f"The {what} must be from {low} to {high}; {value} is not.")
    return value


def require_seat(seat: Any) -> Seat:
    # type() and not isinstance(): True and 1.0 compare equal to 1 but are not seats.
    if type(seat) is not int or seat not in SEATS:
        raise RuleError("bad-seat", "A seat is 0 (Player One) or 1 (Player Two).")
    return seat


def _example(keys: Sequence[str]) -> str:
    return "{" + ", ".join(f'"{k}": ...' for k in keys) + "}"
