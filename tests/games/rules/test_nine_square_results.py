"""Nine-Square's scoring drawn on its boards (nine_square/scoring.py and board.py): which
lines scored and for whom, as the board builder hands them to the template. Pure."""

from __future__ import annotations

import random

import pytest

from games.rules import get_variant
from games.rules.variants.nine_square import board as nine_board
from games.rules.variants.nine_square import scoring

VARIANT = get_variant("nine-square")


def empty() -> list[list[str | None]]:
    return [[None] * 9 for _ in range(9)]


@pytest.mark.parametrize("seed", range(8))
def test_scoring_counts_what_the_engine_counts(seed):
    """The breakdown adds up to the engine's points, in play and at the end."""
    rng = random.Random(seed)
    state = VARIANT.new_game(None, seed=seed)
    while state.to_move:
        seat = state.to_move[0]
        state = VARIANT.apply(state, seat, VARIANT.random_move(state, seat, rng))
        view = VARIANT.view(state, None)
        for s in (0, 1):
            got = scoring.scored(view["board"], view["letters"][s])
            assert (got.line_points, got.bonus_points) == (view["points"]["lines"][s], view["points"]["bonus"][s])


def test_strike_runs_through_its_three_cells():
    top_row = nine_board.strike((0, 1, 2), "X")
    assert (top_row["y1"], top_row["y2"]) == (0.5, 0.5)
    assert top_row["x1"] < 0.5 and top_row["x2"] > 2.5
    anti = nine_board.strike((2, 4, 6), "O")
    assert anti["x1"] > 2.5 and anti["y1"] < 0.5 and anti["x2"] < 0.5 and anti["y2"] > 2.5
    column = nine_board.strike((1, 4, 7), "O")
    assert column["x1"] == column["x2"] == 1.5
    # Drawn beside: X's and O's strokes of the same line of boards lie apart.
    x_row, o_row = nine_board.strike((3, 4, 5), "X", -0.07), nine_board.strike((3, 4, 5), "O", 0.07)
    assert x_row["y1"] == x_row["y2"] == 1.43 and o_row["y1"] == o_row["y2"] == 1.57


def test_board_context_draws_lines_full_boards_and_lines_of_boards():
    board = empty()
    board[2] = ["O"] * 9  # board 3 filled by O
    for b in (0, 4, 8):  # O's top rows on boards 1, 5 and 9: the diagonal of boards
        board[b][0:3] = ["O", "O", "O"]
    board[3][2], board[3][4], board[3][6] = "X", "X", "X"  # X's diagonal on board 4
    view = {"board": board, "letters": ["X", "O"], "last_turn": None}
    context = VARIANT.build_board(view, [], None, False)
    boards = {b["b"]: b for b in context["boards"]}
    assert [line["letter"] for line in boards[1]["lines"]] == ["O"]
    assert boards[4]["lines"] == [nine_board.strike((2, 4, 6), "X")]
    # A full board is one mark, not eight strokes.
    assert boards[3]["full"] == "O" and boards[3]["lines"] == []
    assert boards[2]["lines"] == [] and boards[2]["full"] is None
    assert context["board_lines"] == [nine_board.strike((0, 4, 8), "O", nine_board.BESIDE["O"])]
    x_row, o_row = context["legend"]
    assert x_row == {"letter": "X", "parts": ["1 line of three (1)"], "points": 1}
    assert o_row == {
        "letter": "O",
        "parts": ["3 lines of three (3)", "board 3 full (8)", "the diagonal of boards 1, 5 and 9 (3)"],
        "points": 14,
    }


def test_nothing_scored_draws_nothing():
    context = VARIANT.build_board({"board": empty(), "letters": ["O", "X"]}, [], 0, True)
    assert all(b["lines"] == [] and b["full"] is None for b in context["boards"])
    assert context["board_lines"] == []
    assert [(row["letter"], row["parts"], row["points"]) for row in context["legend"]] == [("O", [], 0), ("X", [], 0)]


def test_in_words():
    board = empty()
    board[4][0:3] = ["X", "X", "X"]
    board[4][3:6] = ["X", "X", "X"]
    board[6][0:3] = ["X", "X", "X"]
    assert scoring.in_words(scoring.scored(board, "X")) == "lines on boards 5 (2 lines) and 7"
    assert scoring.in_words(scoring.scored(board, "O")) == "no line"
    assert scoring.board_line_name(0) == "the top row of boards"
    assert scoring.board_line_name(4) == "the middle column of boards"
    assert scoring.board_line_name(7) == "the diagonal of boards 3, 5 and 7"
