"""T-Tic-T-Tac-Toe's board builder: every legal action is a target on the board, of its
tool, and nothing else is; what each move did stays drawn after it."""

from __future__ import annotations

import json
import re
from typing import Any, cast

from games.rules.variants.t_tic_t_tac_toe import board
from games.rules.variants.t_tic_t_tac_toe.state import TTTState
from tests.games.rules.test_t_tic_t_tac_toe import EMPTY, V, place, play, position


def listed(state: TTTState, seat: int) -> list[dict[str, Any]]:
    """The legal moves as the game page lists them (games/views.py _legal_for)."""
    return [
        {"move": m, "label": V.describe_move(m), "json": json.dumps(m), "kind": m["action"]}
        for m in V.legal_moves(state, seat)
    ]


def built(state: TTTState, seat: int = 0) -> dict[str, Any]:
    my_turn = seat in state.to_move
    return board.build_board(V.view(state, seat), listed(state, seat) if my_turn else [], seat, my_turn)


def moves_of(targets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [json.loads(t["json"]) for t in targets]


def canonical(moves: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(m, sort_keys=True) for m in moves)


def wall_moves(context: dict[str, Any]) -> list[dict[str, Any]]:
    """Every wall the board offers: around a square, or two picked sides (both orders)."""
    found = moves_of(context["wall_arounds"])
    pairs = set()
    for segment in context["wall_segments"]:
        for partner, move in json.loads(segment["partners"]).items():
            assert segment["segment"] in move["segments"] and partner in move["segments"]
            pairs.add(json.dumps(move, sort_keys=True))
    return found + [json.loads(p) for p in pairs]


def a_busy_position() -> TTTState:
    """Version 1.0 at move 11: the centre wall may be torn down, O's curtain h4 is still
    impregnable, X has used nothing, letters of both on the board."""
    return position(
        "X O . . .\n. X . O .\n. . . . .\n. . . X .\n O . . . .",
        version="1.0",
        blockages=(("curtain", "h4", 1, 9),),
        spent=((), ("curtain",)),
    )


def test_the_targets_are_exactly_the_legal_moves_of_each_tool():
    state = a_busy_position()
    context = built(state, 0)
    legal = V.legal_moves(state, 0)
    of = {kind: [m for m in legal if m["action"] in kinds] for kind, kinds in (
        ("curtain", ("curtain",)), ("wall", ("wall",)), ("super", ("super",)),
        ("checkpoint", ("checkpoint",)), ("destroy", ("snip", "tear-down")),
    )}  # fmt: skip
    assert canonical(moves_of(context["curtains"])) == canonical(of["curtain"])
    assert canonical(wall_moves(context)) == canonical(of["wall"])
    assert canonical(moves_of(context["supers"])) == canonical(of["super"])
    assert canonical(moves_of(context["checkpoint_targets"])) == canonical(of["checkpoint"])
    assert canonical(moves_of(context["destroy_targets"])) == canonical(of["destroy"])
    # Destroying offers only the centre wall: O's curtain is still impregnable.
    assert moves_of(context["destroy_targets"]) == [{"action": "tear-down", "around": 13}]
    # The curtain on h4 is taken: no target there; the seven other lines are offered.
    assert {m["line"] for m in moves_of(context["curtains"])} == {"h1", "h2", "h3", "v1", "v2", "v3", "v4"}
    placeable = {c["n"] for c in context["cells"] if c["legal"]}
    assert placeable == {m["square"] for m in legal if m["action"] == "place" and "symbol" not in m}
    assert [t["key"] for t in context["tools"]] == ["place", "curtain", "wall", "super", "checkpoint", "destroy"]


def test_a_tool_with_no_legal_move_is_not_offered_and_the_waiting_player_gets_none():
    state = a_busy_position()
    o_side = built(play(state, place(25)), 1)
    # O has used the curtain; the centre wall is still destroyable for O as well.
    assert "curtain" not in [t["key"] for t in o_side["tools"]] and not o_side["curtains"]
    waiting = built(state, 1)
    assert waiting["tools"] == [] and waiting["supers"] == [] and waiting["destroy_targets"] == []
    first_move = built(V.new_game({"version": "2.0"}, seed=1), 0)
    assert [t["key"] for t in first_move["tools"]] == ["place"]  # the first move is a letter


def test_a_super_target_says_what_it_would_goosh_and_fill():
    state = position("X O . . .\n" + ". . . . .\n" * 4, version="2.0")
    target = next(t for t in built(state, 0)["supers"] if json.loads(t["json"])["square"] == 1)
    assert target["range"] == "1 2 6 7" and target["goosh"] == "2" and target["fill"] == "6 7"
    assert "gooshes 2" in target["label"] and "writes X on 6, 7" in target["label"]


def test_blockages_are_drawn_with_owner_protection_and_checkpoint():
    state = play(a_busy_position(), {"action": "checkpoint", "line": "h4"})
    context = built(state, 1)
    curtain = next(b for b in context["blockages"] if b["kind"] == "curtain")
    assert "seat-1" in curtain["classes"] and "protected" in curtain["classes"] and "last" in curtain["classes"]
    assert curtain["checkpoint"] and curtain["left"] > 0
    assert curtain["label"].startswith("O's Iron Curtain between rows 4 and 5, impregnable for")
    centre = next(b for b in context["blockages"] if b["kind"] == "wall")
    assert "drawer" in centre["classes"] and "protected" not in centre["classes"] and "may be destroyed" in centre["label"]


def test_what_a_move_did_stays_visible_gooshed_destroyed_and_a_super_that_gooshed_nothing():
    state = a_busy_position()
    after = play(state, {"action": "super", "square": 1})  # X's super gooshes O on 2
    context = built(after, 1)
    gooshed = [c["n"] for c in context["cells"] if "gooshed" in c["classes"]]
    assert gooshed == [2] and "gooshed by the last move's super" in context["cells"][1]["label"]
    assert context["last"] == "Move 11, X: super on squares 1, 2, 6, 7: gooshed 2."
    assert context["supers_played"][0]["last"] and context["supers_played"][0]["letter"] == "X"
    # The next move ends the marking; the super itself stays drawn.
    later = built(play(after, place(15)), 0)
    assert not any("gooshed" in c["classes"] for c in later["cells"])
    assert len(later["supers_played"]) == 1 and not later["supers_played"][0]["last"]
    # A super with nothing to goosh still leaves its trace.
    empty = play(position(EMPTY, version="1.0"), {"action": "super", "square": 19})
    trace = built(empty, 1)
    assert trace["supers_played"][0]["label"].endswith("gooshed nothing")
    assert {c["n"] for c in trace["cells"] if "in-last-super" in c["classes"]} == {19, 20, 24, 25}
    # A destroyed blockage is drawn faded with the move that destroyed it.
    torn = built(play(state, {"action": "tear-down", "around": 13}), 1)
    assert [g["label"] for g in torn["ghosts"]] == [
        "The Berlin Wall around square 13: torn down by Ronald Reagan on move 11"
    ]
    assert not any(b["kind"] == "wall" for b in torn["blockages"])


def test_a_pending_move_is_confirmed_or_taken_back_on_the_board():
    state = position(EMPTY, version="2.0", confirm_moves=True)
    pending = play(state, {"action": "curtain", "line": "v2"})
    context = built(pending, 0)
    assert context["tools"] == []  # nothing else until the pen is lifted
    assert json.loads(context["pending"]["confirm"]) == {"action": "confirm"}
    assert json.loads(context["pending"]["take_back"]) == {"action": "take-back"}
    assert context["pending"]["text"] == "Iron Curtain on the line between columns 2 and 3"
    assert context["pending"]["orient"] == "v"
    assert built(pending, 1)["pending"]["confirm"] is None  # the other player only sees it


def test_games_stored_before_moves_were_kept_in_the_history_still_load():
    state = play(position(EMPTY, version="1.0"), place(1), {"action": "super", "square": 1})
    data = V.dump(state)
    data["history"] = [row[:5] for row in data["history"]]
    old = cast(TTTState, V.load(data))
    context = built(old, 0)
    assert context["last"] == "" and context["supers_played"] == []


def test_moves_are_named_in_words():
    words = {
        json.dumps(m): V.describe_move(m)
        for m in (
            {"action": "curtain", "line": "h1"},
            {"action": "wall", "segments": ["8|13", "9|14"]},
            {"action": "wall", "segments": ["7|8", "12|13"]},
            {"action": "snip", "line": "v4"},
            {"action": "checkpoint", "around": 13},
        )
    }
    assert list(words.values()) == [
        "Iron Curtain on the line between rows 1 and 2",
        "Berlin Wall separating squares 8, 9 from 13, 14",
        "Berlin Wall separating squares 7, 12 from 8, 13",
        "wire cutters: snip the Iron Curtain between columns 4 and 5",
        "Checkpoint Charlie on the Berlin Wall around square 13",
    ]


def test_the_super_tool_and_its_hint_say_the_same_corner():
    """The tool said "Pick its centre" while the hint said "Pick the corner the four squares
    share": a super is aimed at the corner its 2x2 block's four squares share."""
    from pathlib import Path

    tool = next(words for key, _, words in board.TOOLS if key == "super")
    script = (Path(__file__).resolve().parents[3] / "static/js/boards/t-tic-t-tac-toe.js").read_text()
    hint = re.search(r'super: "([^"]+)"', script)
    assert hint is not None and "centre" not in tool
    assert tool.endswith("Pick the corner its four squares share.")
    assert hint.group(1).startswith("Pick the corner the 2x2 block's four squares share:")


def test_the_super_tool_says_what_a_goosh_is():
    """The rule text's word, "goosh", is said with what it means on the tool itself: a
    newcomer at the board read "Gooshes the opponent's letters" and could not tell."""
    tool = next(words for key, _, words in board.TOOLS if key == "super")
    assert tool.startswith("Clears (gooshes) the opponent's letters in a 2x2 block.")
