"""The engine's vocabulary: variant, state, move, outcome, preset.

A *Variant* is a stateless rule book; a *State* is an immutable value; a *move* is a
JSON-ready dict; applying a move returns a new state. Seats are 0 (Player One) and 1
(Player Two); ``None`` as a viewer is an observer.

A Variant class is also the one registration of its rule set: besides the rules it
carries the metadata the site shows (``display_name``, ``summary``, ``board_template``)
and reaches the other parts of its package (``games/rules/variants/<module>/``): the AI
(``strong_move``, ``casual_move``), the house rules in words (``describe_rules``,
``presets``) and the board builder (``build_board``). docs/adding-a-variant.md lists
what a new variant needs.
"""

from __future__ import annotations

import copy
import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import jsonschema

from . import results
from .errors import RuleError
from .schema import Check, compile_schema

Seat = int
Move = dict[str, Any]
Viewer = int | None

SEATS: tuple[Seat, Seat] = (0, 1)
SEAT_NAMES = ("Player One", "Player Two")

#: House rules are shallow (the deepest, a pair of symbols, is two levels); far deeper
#: ones are refused before anything recurses into them.
MAX_OPTIONS_DEPTH = 16


def _nested_deeper_than(value: Any, limit: int) -> bool:
    """Whether lists and objects in ``value`` nest more than ``limit`` levels (walked
    without recursion, so any depth the JSON reader produced is measured)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping | list | tuple):
            if depth >= limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, Mapping) else item))
    return False


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


@dataclass(frozen=True, slots=True)
class Preset:
    """A named set of options for one variant, with the text it comes from."""

    slug: str
    variant: str
    name: str
    source: str
    options: Mapping[str, Any] = field(default_factory=dict)


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
    #: The rule set's own title, as its text names it.
    name: ClassVar[str]
    #: JSON Schema (draft 2020-12) of the house-rule options, with defaults.
    options_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {},
        "additionalProperties": False,
    }
    #: JSON Schema of what ``dump`` writes: ``load`` refuses data it does not match.
    state_schema: ClassVar[dict[str, Any]]
    #: True where legal_moves would be too large to build (see the variant's docs).
    huge_move_space: ClassVar[bool] = False

    # -- what the site shows ---------------------------------------------------------
    #: What the site calls the rule set (lobby, game page, forms).
    display_name: ClassVar[str]
    #: One line for the lobby: what the game is.
    summary: ClassVar[str]
    #: The Django template drawing the board from ``build_board``'s context.
    board_template: ClassVar[str]
    #: A static script of the variant's own board interactions (aiming an action on the
    #: board), loaded by the game page after static/js/game.js; "" for none. It talks to
    #: the page through ``window.GamePage`` (docs/game-page.md).
    board_script: ClassVar[str] = ""
    #: True where the game page lists the legal moves to pick from (many kinds of action);
    #: otherwise the board builds every move itself (squares, plans, marks, throws).
    offers_move_list: ClassVar[bool] = False
    #: The rule sets the texts define: the standard rules first, then named house rules.
    presets: ClassVar[tuple[Preset, ...]]
    #: The standard rules' clock (games/rule_sets.py standard_rule_set): seconds per move
    #: and per game, None for no limit. Each variant's choice and why: docs/rules/<slug>.md.
    default_seconds_per_move: ClassVar[int | None] = None
    default_seconds_per_game: ClassVar[int | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Every entry point taking a seat, a viewer or stored data gets the same check
        # first, so no rule set can be fooled by a seat of True, 1.0 or "0" from untrusted
        # JSON, nor load a damaged dump.
        super().__init_subclass__(**kwargs)
        for name, guard in _GUARDS.items():
            method = cls.__dict__.get(name)
            if method is not None and not getattr(method, "_guarded", False):
                setattr(cls, name, guard(method))

    # -- options ---------------------------------------------------------------

    def default_options(self) -> dict[str, Any]:
        props = self.options_schema.get("properties", {})
        return {key: copy.deepcopy(spec["default"]) for key, spec in props.items() if "default" in spec}

    def validate_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill in defaults and check house rules; raise RuleError("bad-options")."""
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise RuleError("bad-options", "House rules must be given as named options.")
        if _nested_deeper_than(options, MAX_OPTIONS_DEPTH):
            # deepcopy and the schema's validator recurse: some 470 levels were a RecursionError.
            raise RuleError("bad-options", f"House rules nest at most {MAX_OPTIONS_DEPTH} levels deep.")
        merged = self.default_options()
        merged.update(copy.deepcopy(dict(options)))
        # The variant's own checks come first: their messages speak the rules' words.
        self.check_options(merged)
        error = jsonschema.exceptions.best_match(self._options_validator().iter_errors(merged))
        if error is not None:
            raise RuleError("bad-options", self._option_refusal(error))
        return merged

    def _option_refusal(self, error: jsonschema.exceptions.ValidationError) -> str:
        """A refused option in words. A whole number out of range names the option by its
        title and its range ("Take-backs per player and game is a whole number from 0 to
        25."): the schema's own words ("-3 is less than the minimum of 0") name neither,
        and echo a number of any length back."""
        path = list(error.absolute_path)
        spec = self.options_schema.get("properties", {}).get(path[0], {}) if len(path) == 1 else {}
        if spec.get("type") == "integer" and {"minimum", "maximum"} <= spec.keys():
            title = spec.get("title", str(path[0]))
            return f"{title} is a whole number from {spec['minimum']} to {spec['maximum']}."
        where = ".".join(str(p) for p in path) or "options"
        return f"House rule {where!s}: {error.message}"

    @classmethod
    def _options_validator(cls) -> jsonschema.Draft202012Validator:
        # Compiled once per variant class: validating options happens on every new game.
        validator = cls.__dict__.get("_compiled_options_validator")
        if validator is None:
            validator = jsonschema.Draft202012Validator(cls.options_schema)
            cls._compiled_options_validator = validator  # type: ignore[attr-defined]
        return validator

    def letters_by_chance(self, options: Mapping[str, Any]) -> bool:
        """Whether the start's chance (the seed) decides which letter each seat plays
        (Nine-Square's set-up roll): then an open challenge shows none yet."""
        return False

    def opening_words(self, options: Mapping[str, Any]) -> str:
        """Who does what first, by letter, where the seat to move at the start does not
        simply move first (Tic Tac Two: O drafts first, X writes the first letter); ""
        where it does. The rematch box says it (games.boards.rematch_swap_words)."""
        return ""

    def check_options(self, options: dict[str, Any]) -> None:
        """Variant-specific checks with players' words; raise RuleError("bad-options")."""

    def check_dump(self, data: Any) -> None:
        """Refuse with RuleError("bad-state") data that does not match ``state_schema``."""
        problem = self._state_check()(data, "state")
        if problem is not None:
            raise RuleError("bad-state", f"This is not a stored {self.name} game ({problem}).")

    @classmethod
    def _state_check(cls) -> Check:
        # Compiled once per variant class: every load runs it (games.rules.schema says why
        # not jsonschema).
        check: Check | None = cls.__dict__.get("_compiled_state_check")
        if check is None:
            check = compile_schema(cls.state_schema)
            cls._compiled_state_check = check  # type: ignore[attr-defined]
        return check

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
        """The state back from ``dump``'s data.

        ``data`` has been checked against ``state_schema`` already; the variant checks
        what a schema cannot (consistency) and raises RuleError("bad-state").
        """

    # -- the variant's other parts: AI, house rules in words, board ------------

    @abstractmethod
    def strong_move(self, state: State, seat: Seat, rng: random.Random) -> Move:
        """The strong AI's move (the variant's best search)."""

    def casual_move(self, state: State, seat: Seat, rng: random.Random) -> Move:
        """The casual AI's move: plays like a person, mostly sound, sometimes a mistake.

        This default mixes the strong move with a random one; variants override it.
        """
        if rng.random() < CASUAL_STRENGTH:
            return self.strong_move(state, seat, rng)
        return self.random_move(state, seat, rng)

    @abstractmethod
    def describe_rules(self, options: Mapping[str, Any]) -> list[str]:
        """The rules with ``options`` (already validated) in sentences a player reads."""

    @abstractmethod
    def build_board(
        self, view: dict[str, Any], legal: list[dict[str, Any]], seat: Viewer, my_turn: bool
    ) -> dict[str, Any]:
        """The board template's context from ``view`` and the viewer's listed legal moves.

        Each item of ``legal`` is ``{"move", "label", "json", "kind"}``; the list is empty
        when the viewer may not move or the moves are too many to list.
        """

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

    def describe_move_line(self, move: Move, seat: Seat, view: Mapping[str, Any], ply: int) -> str:
        """What move ``ply`` of ``seat`` did, in the words of the variant's rule text, for
        the move list: which square by its number and its place, and for a move that moves
        letters, from where to where (games/rules/words.py). ``view``: the board's view
        now (what later moves revealed). ValueError, KeyError or TypeError for a move it
        cannot read. This default is the notation."""
        return self.describe_move(move)

    def describe_result(
        self, view: Mapping[str, Any], result: Mapping[str, Any], names: Sequence[str | None] | None = None
    ) -> str:
        """The finished game's result in one sentence, from its final ``view`` and the stored
        ``result`` dict; ``names`` are the players' by seat where known. Variants whose
        rules end say more (which line, which round, which boards scored) override it;
        games/rules/results.py builds the parts."""
        return results.default_sentence(view, result, names)

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


#: How often the default casual player picks the strong move rather than a random one.
CASUAL_STRENGTH = 0.7


# -- the checks every variant's entry points get first -------------------------------


def _seat_checked(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def checked(self: Variant, state: State, seat: Any, *args: Any, **kwargs: Any) -> Any:
        return method(self, state, require_seat(seat), *args, **kwargs)

    checked._guarded = True  # type: ignore[attr-defined]
    return checked


def _viewer_checked(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def checked(self: Variant, state: State, viewer: Any) -> Any:
        return method(self, state, require_viewer(viewer))

    checked._guarded = True  # type: ignore[attr-defined]
    return checked


def _dump_checked(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def checked(self: Variant, data: Any) -> Any:
        self.check_dump(data)
        return method(self, data)

    checked._guarded = True  # type: ignore[attr-defined]
    return checked


_GUARDS: dict[str, Callable[[Callable[..., Any]], Callable[..., Any]]] = {
    "legal_moves": _seat_checked,
    "apply": _seat_checked,
    "random_move": _seat_checked,
    "strong_move": _seat_checked,
    "casual_move": _seat_checked,
    "view": _viewer_checked,
    "load": _dump_checked,
}

# The base class's own implementations get the same guards as the variants' overrides.
for _name in ("random_move", "casual_move"):
    setattr(Variant, _name, _GUARDS[_name](getattr(Variant, _name)))


# -- reading stored data -------------------------------------------------------


def outcome_of(data: Mapping[str, Any] | None) -> Outcome | None:
    """The Outcome stored as ``OUTCOME_SCHEMA`` data; RuleError when winner and result disagree."""
    if data is None:
        return None
    if (data["result"] == "win") != (data["winner"] is not None):
        raise RuleError("bad-state", "A stored outcome is a win with a winner, or a draw or tie without one.")
    scores = data["scores"]
    return Outcome(
        result=data["result"],
        winner=data["winner"],
        scores=None if scores is None else (scores[0], scores[1]),
        reason=data["reason"],
    )


# -- small checks shared by the variants' move parsers -----------------------------


def require_mapping(move: Any, keys: Sequence[str]) -> Mapping[str, Any]:
    """The move as a mapping holding exactly ``keys``; RuleError("malformed-move") if not."""
    if not isinstance(move, Mapping):
        raise RuleError("malformed-move", "A move must be an object such as " + _example(keys) + ".")
    missing = [k for k in keys if k not in move]
    extra = [k for k in move if k not in keys]
    if missing or extra:
        raise RuleError("malformed-move", "A move must be an object such as " + _example(keys) + ".")
    return move


def require_int(value: object, low: int, high: int, what: str) -> int:
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


def require_viewer(viewer: Any) -> Viewer:
    """A seat, or None for an observer; RuleError("bad-seat") for anything else."""
    return None if viewer is None else require_seat(viewer)


def _example(keys: Sequence[str]) -> str:
    return "{" + ", ".join(f'"{k}": ...' for k in keys) + "}"
