"""The move list's lines (games/templatetags/game_lines.py, docs/game-page.md "The moves
list"): each variant's move said in its rule text's words, naming a square by its number
and its place on the board, and a move that moves letters from where to where; on the
game page and the replay. The walkthrough's find: T-Tic-T-Tac-Toe's list said "O on
square 14", and no board shows square numbers."""

from __future__ import annotations

import random

import pytest

from games import lesson_service, services
from games.lessons import BY_SLUG
from games.rules import get_variant
from games.templatetags.game_lines import move_words
from tests.sockets import pushed_board


def words(variant: str, move: dict, seat: int = 0, view: dict | None = None, ply: int = 1) -> str:
    return move_words(variant, {"ply": ply, "seat": seat, "move": move, "notation": "engine's"}, view or {})


def test_classic_names_the_square_by_number_and_place():
    assert words("classic", {"cell": 5}) == "placed X in square 5 (centre)"
    assert words("classic", {"cell": 3}, seat=1) == "placed O in square 3 (top right)"


def test_tactic_toe_says_the_plan_in_order_and_once_revealed_what_each_square_became():
    plan = {"plan": [2, 3, 7]}
    assert words("tactic-toe", plan, ply=1) == (
        "round 1 plan: square 2 (top middle); then 3 (top right); then 7 (bottom left)"
    )
    # The text's worked example: A (X) 2, 3, 7 against B (O) 2, 7, 1.
    variant = get_variant("tactic-toe")
    state = variant.apply(variant.apply(variant.new_game(None, seed="s"), 0, plan), 1, {"plan": [2, 7, 1]})
    view = variant.view(state, None)
    assert words("tactic-toe", plan, view=view, ply=1) == (
        "round 1 plan: square 2 (top middle), bounced out; then 3 (top right), placed; "
        "then 7 (bottom left), invalid (taken already)"
    )
    assert words("tactic-toe", {"plan": [2, 7, 1]}, seat=1, view=view, ply=2).endswith("then 1 (top left), placed")
    # A plan still secret from this viewer has no words (the page says it is secret).
    assert move_words("tactic-toe", {"ply": 1, "seat": 1}, view) == ""


def test_nine_square_names_each_board_and_square_by_number_and_place():
    assert words("nine-square", {"marks": [[2, 4], [2, 5], [2, 6]]}) == (
        "placed 3 marks: board 2 (top middle), squares 4 (middle left), 5 (centre) and 6 (middle right)"
    )
    assert words("nine-square", {"marks": [[5, 9], [9, 1]]}) == (
        "placed 2 marks: board 5 (centre), square 9 (bottom right); board 9 (bottom right), square 1 (top left)"
    )


def test_t_tic_t_tac_toe_says_each_action_in_the_rules_words():
    view = {"symbols": ["X", "O"], "version": "2.0", "history": [
        {"ply": 12, "kind": "super", "gooshed": [18]}, {"ply": 13, "kind": "super", "gooshed": []},
    ]}
    line = lambda move, seat=1, ply=1: words("t-tic-t-tac-toe", move, seat, view, ply)  # noqa: E731
    assert line({"action": "place", "square": 14}) == "placed O on square 14 (row 3, column 4)"
    assert line({"action": "place", "square": 14, "symbol": "O"}) == "placed O on square 14 (row 3, column 4)"
    assert line({"action": "place", "square": 13, "symbol": "X"}) == (
        "wrote the other player's letter, X, on square 13 (row 3, column 3): a bwah (rule 6.01)"
    )
    assert line({"action": "curtain", "line": "h3"}) == "Iron Curtain on the line between rows 3 and 4"
    assert line({"action": "wall", "around": 18}) == "Berlin Wall around square 18 (row 4, column 3)"
    assert line({"action": "wall", "segments": ["18|23", "17|22"]}) == (
        "Berlin Wall separating squares 17, 18 from 22, 23, on the line between rows 4 and 5"
    )
    assert line({"action": "checkpoint", "around": 18}) == (
        "Checkpoint Charlie on the Berlin Wall around square 18 (row 4, column 3): two more full turns of protection"
    )
    assert line({"action": "snip", "line": "h3"}) == "wire cutters: snipped the Iron Curtain on the line between rows 3 and 4"
    assert line({"action": "tear-down", "segments": ["8|13", "9|14"]}) == (
        "Ronald Reagan: tore down the Berlin Wall separating squares 8, 9 from 13, 14, on the line between rows 2 "
        "and 3"
    )
    # A super says what it gooshed (from the board's history) and, in Version 2.0, that it filled.
    assert line({"action": "super", "square": 12}, seat=0, ply=12) == (
        "super over squares 12, 13, 17 and 18 (rows 3\u20134, columns 2\u20133): gooshed O on 18; "
        "X written on its empty squares"
    )
    assert line({"action": "super", "square": 1}, seat=0, ply=13).startswith(
        "super over squares 1, 2, 6 and 7 (rows 1\u20132, columns 1\u20132): nothing to goosh"
    )
    # Before the view reaches the move (a replay's earlier step), what a super does.
    assert line({"action": "super", "square": 1}, seat=0, ply=20).endswith(
        ": gooshing O's letters in it, writing X on its empty squares"
    )
    assert line({"action": "confirm"}) == "lifted the pen: the move stands"


def test_tic_tac_two_says_where_letters_went():
    view = {"letters": ["X", "O"]}
    line = lambda move, seat=0: words("tic-tac-two", move, seat, view)  # noqa: E731
    assert line({"type": "pick", "action": "dibs"}, seat=1) == "pick Dibs Space"  # no square: the draft's name
    assert line({"type": "write", "cell": 6}) == "wrote X on square 6 (row 2, column 2)"
    assert line({"type": "double", "cell": 7}) == "Double: an extra X on square 7 (row 2, column 3)"
    assert line({"type": "swap", "cells": [9, 5]}) == (
        "Swap: square 5 (row 2, column 1) and square 9 (row 3, column 1) traded places "
        "(what was on 5 went to 9, and what was on 9 to 5)"
    )
    assert line({"type": "shift", "line": "column", "index": 1, "direction": "down"}) == (
        "Shift: column 1 down one square: 1 to 5, 5 to 9, 9 to 13, and 13 round to 1"
    )
    assert line({"type": "shift", "line": "row", "index": 2, "direction": "left"}) == (
        "Shift: row 2 left one square: 8 to 7, 7 to 6, 6 to 5, and 5 round to 8"
    )
    assert line({"type": "dibs", "cell": 7}) == "Dibs Space on square 7 (row 2, column 3)"
    assert line({"type": "intersect", "cell": 8}) == "Intersect Space on square 8 (row 2, column 4)"
    assert line({"type": "wall", "cell": 7, "side": "right"}) == (
        "Wall between squares 7 and 8 (row 2, between columns 3 and 4)"
    )
    assert line({"type": "wall", "cell": 8, "side": "left"}) == line({"type": "wall", "cell": 7, "side": "right"})
    assert line({"type": "wall", "cell": 5, "side": "left"}) == "Wall on the left edge of square 5 (row 2, column 1)"
    assert line({"type": "topple", "cell": 8, "side": "left"}) == (
        "toppled their Wall from the border between squares 7 and 8 onto square 8 (row 2, column 4), "
        "erasing what was on it"
    )
    assert line({"type": "void", "cell": 6}) == "placed the Void on square 6 (row 2, column 2)"


def test_a_move_the_words_cannot_read_keeps_the_engines_notation():
    assert words("classic", {"cell": 12}) == "engine's"
    assert words("tic-tac-two", {"type": "shift", "line": "row", "index": 2, "direction": "up"}) == "engine's"
    # A variant without words of its own: its notation.
    assert words("rock-paper-scissors", {"throw": "rock"}) == get_variant("rock-paper-scissors").describe_move({"throw": "rock"})


#: The variants with words of their own (Variant.describe_move_line).
WORDED = ("classic", "nine-square", "t-tic-t-tac-toe", "tactic-toe", "tic-tac-two")


@pytest.mark.parametrize("slug", WORDED)
def test_every_legal_move_of_random_games_has_its_own_words(slug):
    """Random games of each variant, special actions included: no move falls back to the
    engine's notation (the words read every move the engine takes)."""
    variant = get_variant(slug)
    for game in range(6):
        rng = random.Random(game)
        options = {"version": "2.0" if game % 2 else "1.0"} if slug == "t-tic-t-tac-toe" else None
        state = variant.new_game(options, seed=f"lines-{game}")
        entries = []
        while state.to_move and len(entries) < 60:
            seat = state.to_move[0]
            if slug == "nine-square":
                move = variant.random_move(state, seat, rng)
            else:
                moves = variant.legal_moves(state, seat)
                specials = [m for m in moves if m.get("action", "place") != "place" and m.get("type", "write") != "write"]
                move = rng.choice(specials if specials and rng.random() < 0.4 else moves)
            state = variant.apply(state, seat, move)
            entries.append({"ply": len(entries) + 1, "seat": seat, "move": move, "notation": "engine's"})
        view = variant.view(state, None)
        for entry in entries:
            assert move_words(slug, entry, view) != "engine's", entry


# -- on the pages ---------------------------------------------------------------------------

on_the_database = pytest.mark.django_db(transaction=True)


@on_the_database
def test_the_game_pages_move_list_says_the_moves_in_words(client, make_player):
    """A T-Tic-T-Tac-Toe lesson's list (the coach's O on 14), pushed live and on the page."""
    learner = make_player(username="learner")
    game = lesson_service.start_lesson(user=learner, slug="t-tic-t-tac-toe")
    services.submit_move(game_id=game.pk, user=learner, ply=0, move=BY_SLUG["t-tic-t-tac-toe"].steps[0].move)
    services.play_ai_move(game_id=game.pk, ply=1)
    board = pushed_board(game.pk, learner)
    assert "placed X on square 13 (row 3, column 3)" in board
    assert "placed O on square 14 (row 3, column 4)" in board and "O on square 14\n" not in board
    client.force_login(learner)
    page = client.get(f"/play/{game.pk}/").content.decode()
    assert "Coach (O):\n" in page and "placed O on square 14 (row 3, column 4)" in page


@on_the_database
def test_the_replays_move_list_says_the_moves_in_words(client, make_player):
    learner = make_player(username="learner")
    game = services.create_game(creator=learner, variant="classic", ai_level="casual", creator_seat=0)
    services.submit_move(game_id=game.pk, user=learner, ply=0, move={"cell": 5})
    services.resign(game_id=game.pk, user=learner)
    client.force_login(learner)
    replay = client.get(f"/play/{game.pk}/replay/?step=0").content.decode()
    assert "placed X in square 5 (centre)" in replay
