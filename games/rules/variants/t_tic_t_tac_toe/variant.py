"""Official T-Tic-T-Tac-Toe (seed text 001): one 5x5 game, Version 1.0 or 2.0.

The Variant is a single 5x5 game. The five-game match around it (rock-paper-scissors,
the classic game that decides X and the version, five games all played, the loser
going first) is :class:`games.rules.variants.t_tic_t_tac_toe.match.TTTMatch`.

A turn is exactly one of: place a symbol, place a blockage (Iron Curtain or Berlin
Wall), use a super, snip an Iron Curtain, tear down a Berlin Wall, or put a Checkpoint
Charlie on a blockage. The package: ``geometry`` (what blocks a three in a row),
``state``, ``notation`` (moves in and out), ``engine`` (the rules on parsed actions),
``match``, and this module's Variant class; docs/rules/t-tic-t-tac-toe.md explains
every decision.

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

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from ...base import Move, Outcome, Seat, State, Variant, Viewer, outcome_of
from ...chance import normalise_seed
from ...errors import RuleError
from ...results import Names
from ...schema import OUTCOME_SCHEMA, SEAT_SCHEMA, TO_MOVE_SCHEMA, array, integer, nullable
from . import ai, board, describe, engine
from . import geometry as geo
from .notation import WALLS, describe_action, move_of, parse_move
from .state import (
    CENTRE,
    LETTERS,
    PROTECTION,
    RONALD_REAGANS,
    SPECIALS,
    VERSIONS,
    WIRE_CUTTERS,
    Blockage,
    Checkpoint,
    Event,
    TTTState,
)

#: A stored row: [kind, name, owner, segment mask, placed at, protected until].
_BLOCKAGE_SCHEMA = {
    "type": "array",
    "prefixItems": [
        {"enum": ["curtain", "wall"]},
        {"type": "string"},
        nullable(SEAT_SCHEMA),
        integer(1, (1 << geo.SEGMENT_COUNT) - 1),
        integer(0),
        integer(0),
    ],
    "minItems": 6,
    "maxItems": 6,
}


class TTicTTacToe(Variant):
    slug = "t-tic-t-tac-toe"
    name = "Official T-Tic-T-Tac-Toe"
    display_name = "T-Tic-T-Tac-Toe"
    summary = "Three in a row on a 5x5 board, with Iron Curtains, Berlin Walls, supers and Checkpoint Charlies."
    board_template = "games/boards/t-tic-t-tac-toe.html"
    board_script = "js/boards/t-tic-t-tac-toe.js"
    offers_move_list = True
    presets = describe.PRESETS
    # Longer games with specials to weigh: a longer game clock.
    default_seconds_per_move = None
    default_seconds_per_game = 10 * 60
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

    state_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "properties": {
            "version": {"enum": list(VERSIONS)},
            "symbols": {**array({"enum": list(LETTERS)}, 2), "uniqueItems": True},
            "first": SEAT_SCHEMA,
            "confirm_moves": {"type": "boolean"},
            "bwahs": {"type": "boolean"},
            "take_back_limit": integer(0, 25),
            "seed": {"type": "string"},
            "cells": array({"enum": [None, *LETTERS]}, 25),
            "ply": integer(0),
            "to_move": {**TO_MOVE_SCHEMA, "maxItems": 1},
            "blockages": array(_BLOCKAGE_SCHEMA),
            "checkpoints": array(
                {
                    "type": "array",
                    "prefixItems": [SEAT_SCHEMA, {"type": "string"}, integer(0), integer(0)],
                    "minItems": 4,
                    "maxItems": 4,
                }
            ),
            "spent": array({**array({"enum": list(SPECIALS)}), "uniqueItems": True}, 2),
            "wire_cutters": integer(0, WIRE_CUTTERS),
            "ronald_reagans": integer(0, RONALD_REAGANS),
            "take_backs": array(integer(0, 25), 2),
            "pending": nullable({"type": "object"}),
            "history": array(
                {
                    "type": "array",
                    "prefixItems": [
                        integer(0),
                        nullable(SEAT_SCHEMA),
                        {"type": "string"},
                        {"type": "string"},
                        nullable({"type": "string"}),
                        nullable({"type": "object"}),
                        array(integer(1, 25), most=4),
                    ],
                    "minItems": 5,
                    "maxItems": 7,
                }
            ),
            "outcome": OUTCOME_SCHEMA,
            "winning_line": nullable(array(integer(1, 25), 3)),
        },
        "required": [
            "version", "symbols", "first", "confirm_moves", "bwahs", "take_back_limit", "seed", "cells", "ply",
            "to_move", "blockages", "checkpoints", "spent", "wire_cutters", "ronald_reagans", "take_backs",
            "pending", "history", "outcome", "winning_line",
        ],
        "additionalProperties": False,
    }  # fmt: skip

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


    # -- legality and play ------------------------------------------------------------------

    def legal_moves(self, state: State, seat: Seat) -> list[Move]:
        assert isinstance(state, TTTState)
        return [move_of(action) for action in engine.iter_legal_actions(state, seat)]

    def apply(self, state: State, seat: Seat, move: Any) -> TTTState:
        assert isinstance(state, TTTState)
        if state.outcome is not None:
            raise RuleError("game-over", "The game is over; no more moves can be made.")
        if seat not in state.to_move:
            raise RuleError("not-your-turn", "It is not your turn.")
        return engine.apply_action(state, seat, parse_move(move))

    def outcome(self, state: State) -> Outcome | None:
        assert isinstance(state, TTTState)
        return state.outcome

    def describe_move(self, move: Move) -> str:
        try:
            return describe_action(parse_move(move))
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
            else {"move": move_of(state.pending), "text": describe_action(state.pending)},
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
            "history": [[e.ply, e.seat, e.kind, e.text, e.redraw, e.move, list(e.gooshed)] for e in state.history],
            "outcome": state.outcome.as_dict() if state.outcome is not None else None,
            "winning_line": list(state.winning_line) if state.winning_line else None,
        }

    def load(self, data: Mapping[str, Any]) -> TTTState:
        outcome = outcome_of(data["outcome"])
        if (outcome is None) != bool(data["to_move"]):
            raise RuleError("bad-state", "A running game has a seat to move, a finished one none.")
        if any(used > data["take_back_limit"] for used in data["take_backs"]):
            raise RuleError("bad-state", "More take-backs are used than the game allows.")
        try:
            pending = None if data["pending"] is None else parse_move(data["pending"])
        except RuleError as exc:
            raise RuleError("bad-state", f"The pending move is no move: {exc.message}") from exc
        line = data["winning_line"]
        return TTTState(
            version=data["version"],
            symbols=(data["symbols"][0], data["symbols"][1]),
            first=data["first"],
            confirm_moves=data["confirm_moves"],
            bwahs=data["bwahs"],
            take_back_limit=data["take_back_limit"],
            seed=data["seed"],
            cells=tuple(data["cells"]),
            ply=data["ply"],
            to_move=tuple(data["to_move"]),
            blockages=_blockages(data["blockages"]),
            checkpoints=tuple(Checkpoint(o, t, p, e) for o, t, p, e in data["checkpoints"]),
            spent=(tuple(data["spent"][0]), tuple(data["spent"][1])),
            wire_cutters=data["wire_cutters"],
            ronald_reagans=data["ronald_reagans"],
            take_backs=(data["take_backs"][0], data["take_backs"][1]),
            pending=pending,
            history=tuple(_event(row) for row in data["history"]),
            outcome=outcome,
            winning_line=None if line is None else (line[0], line[1], line[2]),
        )

    # -- the other parts of the package --------------------------------------------------------

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


def _event(row: list[Any]) -> Event:
    """A stored history row; rows stored before the move and the gooshed squares were kept have five items."""
    ply, seat, kind, text, redraw = row[:5]
    move = row[5] if len(row) > 5 else None
    gooshed = row[6] if len(row) > 6 else []
    return Event(ply, seat, kind, text, redraw, move, tuple(gooshed))


def _blockages(rows: list[list[Any]]) -> tuple[Blockage, ...]:
    """Stored blockage rows, each checked against what its name says it is."""
    blockages = []
    for kind, name, owner, mask, placed_at, protected_until in rows:
        shape = geo.LINE_MASK.get(name) if kind == "curtain" else WALLS.get(name)
        if shape != mask:
            raise RuleError("bad-state", f"There is no {kind} called {name!r} covering those segments.")
        if owner is None and (kind, name) != ("wall", f"around {CENTRE}"):
            raise RuleError("bad-state", "Only the board drawer's wall around 13 has no owner.")
        blockages.append(Blockage(kind, name, owner, mask, placed_at, protected_until))
    if len({b.name for b in blockages}) != len(blockages):
        raise RuleError("bad-state", "The same blockage stands twice.")
    return tuple(blockages)
