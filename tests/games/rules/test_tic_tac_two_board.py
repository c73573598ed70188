"""Tic Tac Two's board builder: every action's targets on the board are exactly the
legal moves of that kind (none illegal, none missing), the draft's cards, and what the
last turn did."""

from __future__ import annotations

import json
from typing import Any

from games.rules import get_variant
from games.rules.variants.tic_tac_two.board import build_board
from tests.games.rules.test_tic_tac_two import O, X, draft, play, pos, write

V = get_variant("tic-tac-two")


def listed(state: Any, seat: int) -> list[dict[str, Any]]:
    """The legal moves as the game page lists them (games.views._legal_for: a listed
    move's kind is its "action", else its "type")."""
    return [
        {
            "move": m,
            "label": V.describe_move(m),
            "json": json.dumps(m),
            "kind": m.get("action") or m.get("type"),
        }
        for m in V.legal_moves(state, seat)
    ]


def offered(board: dict[str, Any]) -> list[dict[str, Any]]:
    """Every complete move the board offers: square moves and their per-action targets,
    every Swap pair, Wall borders, topple and Shift arrows, draft cards."""
    moves = [json.loads(c["move"]) for c in board["cells"] if c["move"]]
    moves += [json.loads(m) for c in board["cells"] for m in c["targets"].values()]
    moves += [
        {"type": "swap", "cells": [c["n"], int(p)]}
        for c in board["cells"]
        for p in c["swap"].split()
        if c["n"] < int(p)
    ]
    for key in ("wall_targets", "topple_targets", "shift_targets", "cards"):
        moves += [json.loads(t["move"]) for t in board[key] if t["move"]]
    return moves


def key(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True)


def assert_offered_equals_legal(state: Any, seat: int) -> dict[str, Any]:
    board = build_board(V.view(state, seat), listed(state, seat), seat, True)
    got = sorted(key(m) for m in offered(board))
    assert got == sorted(key(m) for m in V.legal_moves(state, seat))
    assert len(got) == len(set(got))  # each target once
    return board


def test_the_draft_offers_a_card_per_action_still_in_the_pool():
    state = draft(["swap"])  # O took Swap; X to pick
    board = assert_offered_equals_legal(state, X)
    cards = {c["action"]: c for c in board["cards"]}
    assert list(cards) == ["double", "swap", "shift", "dibs", "intersect", "wall"]
    assert cards["swap"]["holders"] == ["O"] and cards["swap"]["move"] == ""
    assert json.loads(cards["wall"]["move"]) == {"type": "pick", "action": "wall"}
    assert all(c["text"] for c in cards.values())


def test_every_action_offers_exactly_its_legal_targets():
    # X holds Double, Swap, Shift; O Dibs, Intersect, Wall; an O Wall stands (O may topple it).
    state = pos(". X O .  . IX X .  O . . .  . . X O", walls=((6, "right", O), (13, "top", O)), dibs={16: O})
    board = assert_offered_equals_legal(state, X)
    assert {t["action"] for t in board["tools"]} == {"double", "swap", "shift"}
    assert not any(
        json.loads(t["move"])["line"] == "row" and json.loads(t["move"])["index"] == 4
        for t in board["shift_targets"]
    )  # row 4 holds a waiting Dibs Space
    assert board["cells"][5]["swap"] == ""  # an Intersect Space is never swapped
    o_board = assert_offered_equals_legal(
        pos(". X O .  . X X .  O . . .  . . X O", walls=((6, "right", O),), to_move=O), O
    )
    assert {t["action"] for t in o_board["tools"]} == {"dibs", "intersect", "wall", "topple"}
    assert len(o_board["topple_targets"]) == 2  # onto 6 or onto 7


def test_nothing_is_offered_on_the_first_turn_or_after_the_action():
    state = draft(["dibs", "double", "intersect", "swap", "wall", "shift"])
    board = assert_offered_equals_legal(state, X)
    assert board["tools"] == [] and all(c["targets"] == {} for c in board["cells"])
    assert "second turn" in board["waiting_tools"]
    acted = pos(". . . .  . X . .  . . . .  . . . .", acted=True)
    board = assert_offered_equals_legal(acted, X)
    assert board["tools"] == [] and "One special action per turn" in board["waiting_tools"]


def test_the_void_phase_puts_voids_on_the_squares():
    state = draft(["dibs", "double", "intersect", "swap", "wall", "shift"], {"void": True})
    board = assert_offered_equals_legal(state, X)
    assert json.loads(board["cells"][0]["move"]) == {"type": "void", "cell": 1}


def test_an_observer_is_offered_nothing():
    state = pos(". X O .  . . . .  . . . .  . . . .")
    board = build_board(V.view(state, None), [], None, False)
    assert offered(board) == [] and not board["aiming"]


def test_the_last_turn_stays_marked_shift_and_a_toppled_wall():
    state = pos("X O . .  . . . .  . . . .  . . . .", walls=((1, "right", O),), to_move=X)
    state = play(state, X, {"type": "shift", "line": "row", "index": 1, "direction": "right"}, write(9))
    board = build_board(V.view(state, O), listed(state, O), O, True)
    assert board["shifted"]["line"] == "row" and board["shifted"]["index"] == 1
    assert all("t2-shifted" in board["cells"][n]["recent"] for n in range(4))
    assert "last" in board["cells"][8]["recent"]
    # The Wall right of 1 stood across the row: it stayed put and fell left, onto square 1.
    assert [f["id"] for f in board["fallen"]] == ["1-right"] and board["walls"] == []
    assert any("fell onto square 1" in note for note in board["notes"])
    # The next turn's first step replaces the marks.
    state = play(state, O, {"type": "dibs", "cell": 16})
    board = build_board(V.view(state, O), listed(state, O), O, True)
    assert board["shifted"] is None and board["fallen"] == [] and "t2-placed" in board["cells"][15]["recent"]


def test_a_swap_marks_both_squares():
    state = play(pos("X O . .  . . . .  . . . .  . . . ."), X, {"type": "swap", "cells": [1, 2]})
    board = build_board(V.view(state, X), listed(state, X), X, True)
    assert "t2-swapped" in board["cells"][0]["recent"] and "t2-swapped" in board["cells"][1]["recent"]
    assert board["notes"] == ["X used Swap: squares 1 and 2 exchanged."]


def test_a_shift_pushes_over_walls_and_the_board_says_where_they_fell():
    # O's Walls on the left edge of 5 and between 6 and 7 stand across row 2; X shifts it right.
    state = pos(". . . .  X O O .  . . . .  . . . .", walls=((5, "left", O), (6, "right", O)))
    state = play(state, X, {"type": "shift", "line": "row", "index": 2, "direction": "right"})
    board = build_board(V.view(state, X), listed(state, X), X, True)
    assert sorted(f["id"] for f in board["fallen"]) == ["5-left", "6-right"]
    assert "O's Wall on the left edge of square 5 fell off the grid (shown dashed)." in board["notes"]
    # Row 2 became . X O O; the Wall between 6 and 7 fell left onto 6 and erased its X.
    assert (
        "O's Wall between squares 6 and 7 fell onto square 6, erasing its X (shown dashed)." in board["notes"]
    )
    assert "t2-erased" in board["cells"][5]["recent"] and board["cells"][5]["mark"] is None
