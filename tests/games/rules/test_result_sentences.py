"""Every way a game ends, in one sentence (Variant.describe_result, games/rules/results.py):
each variant's ends by its rules, from real final states played through the engine, and
every end the platform makes (resignation, time-out, no-show, abandoned, forfeit,
call-offs, correction). Pure: no database."""

from __future__ import annotations

from typing import Any

import pytest

from games.rules import get_variant, variant_slugs
from games.rules.results import line_name

NAMES = ["Lucia", "Sam"]


def finish(slug: str, moves: list[tuple[int, dict[str, Any]]], **kwargs: Any) -> tuple[dict, dict]:
    """(final observer view, stored result dict) after ``moves`` from a new game."""
    variant = get_variant(slug)
    state = variant.replay(moves, **kwargs)
    outcome = variant.outcome(state)
    assert outcome is not None, "the moves must finish the game"
    return variant.view(state, None), outcome.as_dict()


def sentence(slug: str, view: dict, result: dict, names: list[str] | None = NAMES) -> str:
    return get_variant(slug).describe_result(view, result, names)


# -- classic ------------------------------------------------------------------------------


def cells(*squares: int) -> list[dict[str, int]]:
    return [{"cell": n} for n in squares]


def alternate(moves: list[dict[str, Any]], first: int = 0) -> list[tuple[int, dict[str, Any]]]:
    return [((first + i) % 2, move) for i, move in enumerate(moves)]


@pytest.mark.parametrize(
    ("squares", "words"),
    [
        ((1, 4, 2, 5, 3), "Lucia (X) wins with three in a row on the top row."),
        ((1, 2, 4, 3, 7), "Lucia (X) wins with three in a row on the left column."),
        ((1, 2, 5, 3, 9), "Lucia (X) wins with three in a row on the diagonal from the top left."),
        ((3, 1, 5, 2, 7), "Lucia (X) wins with three in a row on the diagonal from the top right."),
        ((1, 4, 2, 5, 9, 6), "Sam (O) wins with three in a row on the middle row."),
    ],
)
def test_classic_names_the_winning_line(squares, words):
    view, result = finish("classic", alternate(cells(*squares)))
    assert sentence("classic", view, result) == words


def test_classic_draw_and_no_names():
    view, result = finish("classic", alternate(cells(1, 2, 3, 5, 4, 6, 8, 7, 9)))
    assert result["result"] == "draw"
    assert sentence("classic", view, result) == "Draw: the grid is full and nobody has three in a row."
    view, result = finish("classic", alternate(cells(1, 4, 2, 5, 3)))
    assert sentence("classic", view, result, None) == "Player One (X) wins with three in a row on the top row."


# -- Tactic-Toe ------------------------------------------------------------------------------


def plans(*rounds: tuple[list[int], list[int]]) -> list[tuple[int, dict[str, Any]]]:
    return [(seat, {"plan": pair[seat]}) for pair in rounds for seat in (0, 1)]


def test_tactic_toe_win_names_line_and_round():
    view, result = finish("tactic-toe", plans(([2, 8, 4], [9, 4, 1]), ([9, 5, 1], [8, 2, 6])))
    assert sentence("tactic-toe", view, result) == (
        "Lucia (X) wins with three in a row on the middle column in round 2."
    )
    view, result = finish("tactic-toe", plans(([7, 9, 3], [9, 3, 1]), ([8, 4, 2], [8, 7, 5])))
    assert sentence("tactic-toe", view, result) == (
        "Sam (O) wins with three in a row on the diagonal from the top left in round 2."
    )


def test_tactic_toe_win_names_every_line_the_winner_made():
    """Round 2 gave O the top row and the middle column at once; the board marked both and
    the sentence named the top row only (walkthrough, game against the computer)."""
    view, result = finish("tactic-toe", plans(([7, 4, 2], [2, 1, 8]), ([9, 6, 5], [6, 5, 3])))
    assert sentence("tactic-toe", view, result) == (
        "Sam (O) wins with three in a row on the top row and the middle column in round 2."
    )


def test_tactic_toe_tie_game_names_both_lines():
    view, result = finish("tactic-toe", plans(([4, 2, 1], [9, 7, 2]), ([7, 6, 5], [1, 8, 3])))
    assert result["result"] == "tie"
    assert sentence("tactic-toe", view, result) == (
        "Tie game: both made a line in round 2 (X on the middle row and O on the bottom row)."
    )


def test_tactic_toe_cats_games():
    view, result = finish(
        "tactic-toe", plans(([7, 1, 3], [7, 4, 6]), ([2, 5, 6], [2, 8, 3]), ([7, 5, 2], [7, 2, 3]))
    )
    assert sentence("tactic-toe", view, result) == "Cat's game (a draw): nobody has three in a row after round 3."
    view, result = finish("tactic-toe", plans(([8, 3, 1], [9, 4, 8]), ([6, 9, 7], [2, 7, 5])))
    assert sentence("tactic-toe", view, result) == (
        "Cat's game (a draw): the grid is full after round 2 and nobody has three in a row."
    )


# -- T-Tic-T-Tac-Toe, Tic Tac Two, Nine-Square, rock-paper-scissors: from played games ----------


def played(slug: str, seed: int, **options: Any) -> tuple[dict, dict]:
    """A whole game of random moves (the engine's own random_move), to its end."""
    import random

    variant = get_variant(slug)
    state = variant.new_game(options or None, seed=seed)
    rng = random.Random(seed)
    for _ in range(500):
        if not state.to_move:
            break
        for seat in list(state.to_move):
            if seat in state.to_move:
                state = variant.apply(state, seat, variant.random_move(state, seat, rng))
    outcome = variant.outcome(state)
    assert outcome is not None
    return variant.view(state, None), outcome.as_dict()


def test_t_tic_t_tac_toe_names_the_squares_of_the_line():
    for seed in range(20):
        view, result = played("t-tic-t-tac-toe", seed)
        if result["result"] == "win":
            break
    else:
        pytest.fail("no won game in 20 seeds")
    line = view["winning_line"]
    letter = view["symbols"][result["winner"]]
    words = sentence("t-tic-t-tac-toe", view, result)
    assert words.startswith(f"{NAMES[result['winner']]} ({letter}) wins with three in a row ")
    assert words.endswith(f"through squares {line[0]}, {line[1]} and {line[2]}.") or " on the " in words


def test_line_names_on_bigger_grids():
    assert line_name([7, 8, 9], 5) == "across through squares 7, 8 and 9"
    assert line_name([3, 8, 13], 5) == "down through squares 3, 8 and 13"
    assert line_name([1, 7, 13], 5) == "diagonally through squares 1, 7 and 13"
    assert line_name([5, 6, 7, 8], 4) == "row 2"
    assert line_name([4, 8, 12, 16], 4) == "column 4"
    assert line_name([4, 7, 10, 13], 4) == "the diagonal from the top right"


def test_tic_tac_two_names_the_four_in_a_row():
    for seed in range(30):
        view, result = played("tic-tac-two", seed)
        if result["result"] == "win":
            break
    else:
        pytest.fail("no won game in 30 seeds")
    words = sentence("tic-tac-two", view, result)
    assert words.startswith(f"{NAMES[result['winner']]} ({'XO'[result['winner']]}) wins with four in a row on ")
    assert "squares" not in words  # a four in a row is a whole row, column or diagonal


def test_tic_tac_two_draw_for_want_of_room_names_the_player():
    view = {"letters": ["X", "O"], "winning_lines": [], "board": [None] * 16}
    reason = "Player One (X) has nowhere left to write an X, so the game is a draw."
    result = {"result": "draw", "winner": None, "scores": None, "reason": reason}
    view["outcome"] = result
    assert sentence("tic-tac-two", view, result) == (
        "Draw: Lucia (X) has nowhere left to write an X, so the game is a draw."
    )


def test_nine_square_says_what_the_winner_scored():
    view, result = played("nine-square", 3)
    words = sentence("nine-square", view, result)
    winner = result["winner"]
    letter = view["letters"][winner]
    high, low = result["scores"][winner], result["scores"][1 - winner]
    assert words.startswith(f"{NAMES[winner]} ({letter}) wins {high}-{low}: ")
    assert words.endswith(" The grid is full.") or words.endswith("so the game is tallied.")


def test_nine_square_full_board_and_line_of_boards_in_words():
    empty: list[list[str | None]] = [[None] * 9 for _ in range(9)]
    board = [row[:] for row in empty]
    board[2] = ["O"] * 9  # board 3 filled by O: 8 points
    for b in (0, 4, 8):  # a line on boards 1, 5 and 9: the diagonal of boards
        board[b][0:3] = ["O", "O", "O"]
    board[3][0:3] = ["X", "X", "X"]
    view = {"board": board, "letters": ["X", "O"]}
    result = {"result": "win", "winner": 1, "scores": [1, 14], "reason": "nothing-left-to-score"}
    view["outcome"] = result
    assert sentence("nine-square", view, result) == (
        "Sam (O) wins 14-1: lines on boards 1, 5 and 9, board 3 full, and the diagonal of boards 1, 5 and 9. "
        "No line is left that either player could still complete, so the game is tallied."
    )


def test_nine_square_draw_says_both():
    board: list[list[str | None]] = [[None] * 9 for _ in range(9)]
    board[0][0:3] = ["X", "X", "X"]
    board[1][0:3] = ["O", "O", "O"]
    view = {"board": board, "letters": ["O", "X"]}
    result = {"result": "draw", "winner": None, "scores": [1, 1], "reason": "grid-full"}
    view["outcome"] = result
    assert sentence("nine-square", view, result) == (
        "Draw, 1-1: O a line on board 2; X a line on board 1. The grid is full."
    )


def test_rock_paper_scissors_keeps_the_throw():
    view, result = finish("rock-paper-scissors", [(0, {"throw": "paper"}), (1, {"throw": "rock"})])
    assert sentence("rock-paper-scissors", view, result) == "Lucia wins: paper covers rock."


# -- the platform's ends, the same words in every variant ------------------------------------

PLATFORM_ENDS = [
    ({"result": "win", "winner": 0, "reason": "Player 2 resigned."}, "Lucia{0} wins: Sam resigned."),
    ({"result": "win", "winner": 0, "reason": "Player 2 ran out of time."}, "Lucia{0} wins: Sam ran out of time."),
    ({"result": "win", "winner": 1, "reason": "Player 1 did not show up."}, "Sam{1} wins: Lucia did not show up."),
    (
        {"result": "win", "winner": 1, "reason": "The game was abandoned: Player 1 did not move for 1 day."},
        "Sam{1} wins: the game was abandoned, Lucia did not move for 1 day.",
    ),
    (
        {"result": "draw", "winner": None, "reason": "The game was abandoned: neither player moved for 1 day."},
        "Draw: the game was abandoned, neither player moved for 1 day.",
    ),
    ({"result": "draw", "winner": None, "reason": "Both players ran out of time."},
     "Draw: both players ran out of time."),
    ({"result": "win", "winner": 1, "reason": "Player 1 lost by forfeit."}, "Sam{1} wins: Lucia lost by forfeit."),
    (
        {"result": "win", "winner": 0, "reason": "Player 2 did not show up: lost by forfeit."},
        "Lucia{0} wins: Sam did not show up, lost by forfeit.",
    ),
    (
        {"result": "win", "winner": 0, "reason": "Result corrected by the arbiter: wrong colours."},
        "Lucia{0} wins (the arbiter corrected the result: wrong colours).",
    ),
    ({"result": "aborted", "winner": None, "reason": "Aborted before the first move."},
     "Aborted before the first move."),
    ({"result": "aborted", "winner": None, "reason": "Sam declined the challenge."},
     "Called off: Sam declined the challenge."),
    (
        {"result": "aborted", "winner": None, "reason": "Nobody accepted the challenge within 1 day."},
        "Called off: nobody accepted the challenge within 1 day.",
    ),
]


@pytest.mark.parametrize("slug", variant_slugs())
@pytest.mark.parametrize(("result", "words"), PLATFORM_ENDS)
def test_platform_ends_in_every_variant(slug, result, words):
    variant = get_variant(slug)
    view = variant.view(variant.new_game(None, seed=1), None)  # no outcome: the platform ended it
    letters = [f" ({view[key][s]})" for key in ("symbols", "marks", "letters") if key in view for s in (0, 1)]
    letters = letters or ["", ""]
    expected = words.format(*letters)
    assert variant.describe_result(view, dict(result, scores=None), NAMES) == expected


def test_platform_end_without_names_says_player_one_and_two():
    variant = get_variant("classic")
    view = variant.view(variant.new_game(None, seed=1), None)
    result = {"result": "win", "winner": 0, "scores": None, "reason": "Player 2 resigned."}
    assert variant.describe_result(view, result, None) == "Player One (X) wins: Player Two resigned."


def test_a_correction_of_a_rules_end_is_told_as_a_correction():
    view, result = finish("classic", alternate(cells(1, 4, 2, 5, 3)))
    corrected = dict(result, winner=1, reason="Result corrected by the arbiter: X used two pencils.")
    assert sentence("classic", view, corrected) == "Sam (O) wins (the arbiter corrected the result: X used two pencils)."
