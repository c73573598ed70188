"""Tic Tac Two (seed text 003): one test per clause of the rule text, in its order.

Squares are numbered 1..16 from the upper left:

     1  2  3  4
     5  6  7  8
     9 10 11 12
    13 14 15 16

Positions are built with ``pos`` (through the public ``load``) from a 16-token grid:
"." empty, "X", "O", "V" a Void, "I" an empty Intersect Space, "IX", "IO", "IXO".
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.rules import RuleError, get_variant

V = get_variant("tic-tac-two")
X, O = 0, 1  # noqa: E741 - the seats are named after their letters
EMPTY_GRID = ". . . .  . . . .  . . . .  . . . ."


def pos(
    grid: str = EMPTY_GRID,
    *,
    held: tuple[tuple[str, ...], tuple[str, ...]] = (
        ("double", "swap", "shift"),
        ("dibs", "intersect", "wall"),
    ),
    spent: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    walls: tuple[tuple[int, str, int], ...] = (),
    dibs: dict[int, int] | None = None,
    to_move: int = X,
    turns: tuple[int, int] = (3, 3),
    acted: bool = False,
    meta: bool = False,
    void: bool = False,
) -> Any:
    """A position in play (both players past their first turn unless ``turns`` says so)."""
    tokens = grid.split()
    assert len(tokens) == 16
    dibs_list: list[int | None] = [None] * 16
    for cell, owner in (dibs or {}).items():
        dibs_list[cell - 1] = owner
    return V.load(
        {
            "options": {"meta": meta, "void": void},
            "seed": "test",
            "held": [list(h) for h in held],
            "spent": [list(s) for s in spent],
            "cells": ["" if t == "." else t for t in tokens],
            "dibs": dibs_list,
            "walls": [{"cell": c, "side": s, "owner": o} for c, s, o in walls],
            "turns": list(turns),
            "acted": acted,
            "to_move": [to_move],
            "outcome": None,
        }
    )


def play(state: Any, seat: int, *moves: dict[str, Any]) -> Any:
    for move in moves:
        state = V.apply(state, seat, move)
    return state


def refused(state: Any, seat: int, move: Any, code: str) -> RuleError:
    before = json.dumps(V.dump(state), sort_keys=True)
    with pytest.raises(RuleError) as err:
        V.apply(state, seat, move)
    assert err.value.code == code, err.value
    assert json.dumps(V.dump(state), sort_keys=True) == before
    return err.value


def write(cell: int) -> dict[str, Any]:
    return {"type": "write", "cell": cell}


def board(state: Any) -> list[str | None]:
    return V.view(state, None)["board"]


def at(state: Any, cell: int) -> str | None:
    return board(state)[cell - 1]


def winner(state: Any) -> int | None:
    outcome = V.outcome(state)
    assert outcome is not None, "the game should be over"
    return outcome.winner


def draft(picks_o_then_x: list[str], options: dict[str, Any] | None = None) -> Any:
    """A new game with the draft played: O, X, O, X, O, X."""
    state = V.new_game(options, seed=1)
    for n, action in enumerate(picks_o_then_x):
        state = V.apply(state, O if n % 2 == 0 else X, {"type": "pick", "action": action})
    return state


STANDARD_DRAFT = ["dibs", "double", "intersect", "swap", "wall", "shift"]


# -- Introduction and set-up ----------------------------------------------------------


def test_players_place_xs_and_os_on_a_4x4_grid():
    state = draft(STANDARD_DRAFT)
    assert board(state) == [None] * 16
    assert sorted(m["cell"] for m in V.legal_moves(state, X)) == list(range(1, 17))
    refused(state, X, write(17), "out-of-range")
    refused(state, X, write(0), "out-of-range")
    state = play(state, X, write(16))
    assert at(state, 16) == "X"
    state = play(state, O, write(1))
    assert at(state, 1) == "O"


def test_the_player_placing_first_is_x_and_o_chooses_special_actions_first():
    state = V.new_game(None, seed=1)
    assert state.to_move == (O,)
    assert V.view(state, None)["phase"] == "draft"
    assert {m["type"] for m in V.legal_moves(state, O)} == {"pick"}
    assert V.legal_moves(state, X) == []
    refused(state, X, {"type": "pick", "action": "double"}, "not-your-turn")
    refused(state, O, write(1), "wrong-phase")
    state = draft(STANDARD_DRAFT)
    assert state.to_move == (X,)
    assert V.view(state, None)["letters"] == ["X", "O"]


def test_players_take_turns_selecting_one_special_action_until_both_hold_three():
    state = V.new_game(None, seed=1)
    seats = []
    for action in STANDARD_DRAFT:
        seat = state.to_move[0]
        seats.append(seat)
        state = V.apply(state, seat, {"type": "pick", "action": action})
    assert seats == [O, X, O, X, O, X]
    actions = V.view(state, None)["actions"]
    assert actions[O]["held"] == ["dibs", "intersect", "wall"]
    assert actions[X]["held"] == ["double", "swap", "shift"]
    assert V.view(state, None)["phase"] == "play"
    refused(state, X, {"type": "pick", "action": "double"}, "wrong-phase")


def test_cannot_choose_a_special_action_already_chosen_by_the_other_player():
    state = draft(["swap"])
    refused(state, X, {"type": "pick", "action": "swap"}, "action-taken")
    assert {"type": "pick", "action": "swap"} not in V.legal_moves(state, X)


def test_cannot_pick_the_same_special_action_multiple_times():
    state = draft(["swap", "double"])
    refused(state, O, {"type": "pick", "action": "swap"}, "action-already-held")
    assert {"type": "pick", "action": "swap"} not in V.legal_moves(state, O)
    # Without Meta, the six actions are shared out: the last pick is forced.
    state = draft(STANDARD_DRAFT[:5])
    assert V.legal_moves(state, X) == [{"type": "pick", "action": "shift"}]


def test_unknown_special_action_is_refused():
    state = V.new_game(None, seed=1)
    refused(state, O, {"type": "pick", "action": "teleport"}, "unknown-action")
    refused(state, O, {"type": "pick", "action": 3}, "unknown-action")


# -- On your turn ---------------------------------------------------------------------


def test_first_turn_is_only_placing_a_letter_anywhere():
    state = draft(STANDARD_DRAFT)
    assert {m["type"] for m in V.legal_moves(state, X)} == {"write"}
    refused(state, X, {"type": "double", "cell": 1}, "first-turn")
    state = play(state, X, write(6))
    assert {m["type"] for m in V.legal_moves(state, O)} == {"write"}
    refused(state, O, {"type": "dibs", "cell": 6}, "first-turn")
    state = play(state, O, write(1))
    # X's second turn: special actions are offered.
    types = {m["type"] for m in V.legal_moves(state, X)}
    assert {"write", "double", "swap", "shift"} <= types
    assert V.view(state, None)["first_turn"] is False


def test_later_turns_may_be_accompanied_by_one_special_action_of_your_own_bunch():
    state = pos(". . . .  . X . .  . . O .  . . . .")
    state = play(state, X, {"type": "double", "cell": 1})
    assert state.to_move == (X,)  # the action came first; the letter is still to write
    refused(state, X, {"type": "swap", "cells": [6, 11]}, "one-action-per-turn")
    refused(state, X, {"type": "intersect", "cell": 2}, "one-action-per-turn")
    assert {m["type"] for m in V.legal_moves(state, X)} == {"write"}
    refused(pos(), X, {"type": "dibs", "cell": 1}, "action-not-held")


def test_you_have_to_write_a_letter_and_writing_it_concludes_the_turn():
    state = pos(". . . .  . X . .  . . O .  . . . .")
    state = play(state, X, {"type": "swap", "cells": [6, 11]})
    assert state.to_move == (X,)
    state = play(state, X, write(16))
    assert state.to_move == (O,)
    assert V.view(state, None)["turns"] == [4, 3]
    refused(state, X, write(1), "not-your-turn")


def test_special_actions_are_written_beside_the_grid_for_all_to_see():
    state = draft(STANDARD_DRAFT)
    views = [V.view(state, viewer) for viewer in (X, O, None)]
    assert views[0] == views[1] == views[2]
    assert views[0]["actions"][X]["remaining"] == ["double", "swap", "shift"]
    with pytest.raises(RuleError):
        V.view(state, 2)


# -- Winning the game -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("grid", "last"),
    [
        ("X X X .  O O . .  O . . .  . . . .", 4),  # a row
        ("X O O .  X . . .  X . . .  . . . .", 13),  # a column
        ("X O O .  . X . .  . O X .  . . . .", 16),  # a diagonal
        (". O O X  . . X .  . X . .  . . . O", 13),  # the other diagonal
    ],
)
def test_connecting_a_row_column_or_diagonal_of_four_wins(grid, last):
    state = play(pos(grid), X, write(last))
    assert winner(state) == X
    assert state.to_move == ()
    assert V.view(state, None)["winning_lines"]
    refused(state, O, write(16 if last != 16 else 15), "game-over")


def test_three_in_a_row_does_not_end_the_game():
    state = play(pos(". . . .  O O . .  . . . .  . . . ."), X, write(1))
    state = play(state, O, write(7))
    assert V.outcome(state) is None


def test_o_wins_with_four_os():
    state = pos("O O O .  X X . .  X . . .  . . . .", to_move=O)
    assert winner(play(state, O, write(4))) == O


# -- Special actions in general -------------------------------------------------------


def test_a_special_action_once_used_cannot_be_used_again():
    state = pos(". . . .  . X . .  . . O .  . . . .", spent=(("double",), ()))
    refused(state, X, {"type": "double", "cell": 1}, "action-used")
    assert "double" not in {m["type"] for m in V.legal_moves(state, X)}
    state = play(state, X, {"type": "swap", "cells": [6, 11]}, write(1))
    state = play(state, O, write(2))
    refused(state, X, {"type": "swap", "cells": [1, 2]}, "action-used")
    assert V.view(state, None)["actions"][X]["used"] == ["double", "swap"]


# -- Double ---------------------------------------------------------------------------


def test_double_places_one_additional_letter():
    state = pos("X X . .  O O . .  O . . .  . . . .")
    state = play(state, X, {"type": "double", "cell": 3})
    assert at(state, 3) == "X" and state.to_move == (X,)
    state = play(state, X, write(4))
    assert winner(state) == X


def test_double_letter_that_completes_four_wins_at_once():
    # Decision: four in a row is checked after every step, so the game ends there.
    state = play(pos("X X X .  O O O .  . . . .  . . . ."), X, {"type": "double", "cell": 4})
    assert winner(state) == X


def test_double_follows_the_letter_placement_rules():
    state = pos("X . . .  O . . .  . . . .  . . . .")
    refused(state, X, {"type": "double", "cell": 5}, "square-taken")


# -- Swap -----------------------------------------------------------------------------


def test_swap_changes_a_letters_position_with_an_adjacent_opposing_letter():
    state = play(pos("X O . .  . . . .  . . . .  . . . ."), X, {"type": "swap", "cells": [1, 2]})
    assert board(state)[:2] == ["O", "X"]
    # Any X and O may be swapped, not only the mover's, and the order of the two squares is free.
    state = play(pos("O X . .  . . . .  . . . .  . . . ."), X, {"type": "swap", "cells": [2, 1]})
    assert board(state)[:2] == ["X", "O"]


def test_swap_can_move_a_letter_into_an_adjacent_empty_space():
    state = play(pos(". O . .  . . . .  . . . .  . . . ."), X, {"type": "swap", "cells": [2, 3]})
    assert board(state)[:3] == [None, None, "O"]


def test_swap_cannot_be_used_on_two_letters_of_the_same_type():
    refused(pos("X X . .  O O . .  . . . .  . . . ."), X, {"type": "swap", "cells": [1, 2]}, "swap-same")
    refused(pos("X X . .  O O . .  . . . .  . . . ."), X, {"type": "swap", "cells": [5, 6]}, "swap-same")
    refused(pos(), X, {"type": "swap", "cells": [1, 2]}, "swap-same")  # two empty squares


def test_swap_only_on_empty_spaces_xs_and_os_never_grid_features():
    # An Intersect Space (even empty) and a Dibs Space awaiting its letter cannot be swapped.
    refused(pos("I X . .  . . . .  . . . .  . . . ."), X, {"type": "swap", "cells": [1, 2]}, "swap-intersect")
    state = pos(". X . .  . . . .  . . . .  . . . .", dibs={1: O})
    refused(state, X, {"type": "swap", "cells": [1, 2]}, "swap-dibs")
    # A Wall is never moved by a Swap (Decision: nor does it stop one).
    state = pos("X O . .  . . . .  . . . .  . . . .", walls=((1, "right", O),))
    state = play(state, X, {"type": "swap", "cells": [1, 2]})
    assert V.view(state, None)["walls"] == [{"cell": 1, "side": "right", "owner": O}]
    legal = [m for m in V.legal_moves(state, X) if m["type"] == "swap"]
    assert legal == []  # the action is spent


def test_letters_written_in_an_intersect_space_are_immune_from_swap():
    state = pos("IX O . .  . . . .  . . . .  . . . .")
    refused(state, X, {"type": "swap", "cells": [1, 2]}, "swap-intersect")
    assert all(1 not in m.get("cells", []) for m in V.legal_moves(state, X))


def test_swap_can_be_used_with_adjacent_diagonal_spaces():
    state = play(pos("X . . .  . O . .  . . . .  . . . ."), X, {"type": "swap", "cells": [1, 6]})
    assert at(state, 1) == "O" and at(state, 6) == "X"
    refused(pos("X . O .  . . . .  . . . .  . . . ."), X, {"type": "swap", "cells": [1, 3]}, "not-adjacent")
    refused(pos("X . . O  . . . .  . . . .  . . . ."), X, {"type": "swap", "cells": [4, 5]}, "not-adjacent")


def test_cannot_write_your_letter_first_then_swap():
    state = play(pos("X O . .  . . . .  . . . .  . . . ."), X, write(16))
    refused(state, X, {"type": "swap", "cells": [1, 2]}, "not-your-turn")
    assert V.legal_moves(state, X) == []


def test_swap_making_both_x_and_o_score_is_a_draw():
    state = pos("X X X O  O O O X  . . . .  . . . .")
    state = play(state, X, {"type": "swap", "cells": [4, 8]})
    outcome = V.outcome(state)
    assert outcome is not None and outcome.result == "draw" and outcome.winner is None
    assert len(V.view(state, None)["winning_lines"]) == 2


def test_swap_completing_only_the_opponents_four_lets_the_opponent_win():
    # Decision: whoever has four in a row wins, whoever caused it.
    state = pos("O O O X  . . . O  . . . .  X . . .")
    assert winner(play(state, X, {"type": "swap", "cells": [4, 8]})) == O


# -- Shift ----------------------------------------------------------------------------


def test_shift_pushes_a_whole_row_or_column_one_space_with_wrap_around():
    state = play(
        pos("X O . X  . . . .  . . . .  . . . ."),
        X,
        {"type": "shift", "line": "row", "index": 1, "direction": "right"},
    )
    assert board(state)[:4] == ["X", "X", "O", None]
    state = play(
        pos("X O . X  . . . .  . . . .  . . . ."),
        X,
        {"type": "shift", "line": "row", "index": 1, "direction": "left"},
    )
    assert board(state)[:4] == ["O", None, "X", "X"]
    state = play(
        pos("X . . .  O . . .  . . . .  . . . ."),
        X,
        {"type": "shift", "line": "column", "index": 1, "direction": "up"},
    )
    assert [at(state, c) for c in (1, 5, 9, 13)] == ["O", None, None, "X"]
    state = play(
        pos("X . . .  O . . .  . . . .  . . . ."),
        X,
        {"type": "shift", "line": "column", "index": 1, "direction": "down"},
    )
    assert [at(state, c) for c in (1, 5, 9, 13)] == [None, "X", "O", None]


def test_intersect_space_indicators_empty_or_with_letters_can_be_moved_by_shift():
    state = pos("I . . .  IXO . . .  . . . .  . . . .")
    state = play(state, X, {"type": "shift", "line": "row", "index": 2, "direction": "right"})
    view = V.view(state, None)
    assert view["intersects"] == [1, 6] and at(state, 6) == "XO" and at(state, 5) is None
    state = play(
        pos("I . . .  . . . .  . . . .  . . . ."),
        X,
        {"type": "shift", "line": "column", "index": 1, "direction": "up"},
    )
    assert V.view(state, None)["intersects"] == [13]


def test_shift_cannot_be_used_diagonally():
    state = pos()
    refused(
        state, X, {"type": "shift", "line": "diagonal", "index": 1, "direction": "right"}, "malformed-move"
    )
    refused(state, X, {"type": "shift", "line": "row", "index": 1, "direction": "up"}, "bad-direction")
    refused(state, X, {"type": "shift", "line": "column", "index": 1, "direction": "left"}, "bad-direction")
    refused(state, X, {"type": "shift", "line": "row", "index": 5, "direction": "left"}, "out-of-range")
    shifts = [m for m in V.legal_moves(state, X) if m["type"] == "shift"]
    assert len(shifts) == 16 and {m["line"] for m in shifts} == {"row", "column"}


def test_wall_shifted_perpendicular_stays_put_and_falls_opposite_to_the_shift():
    # A Wall between squares 2 and 3 stands across row 1. Shifting row 1 right moves
    # the letters under it; the Wall stays, then falls left, onto square 2, erasing it.
    walls = ((2, "right", O), (2, "bottom", O))
    state = pos("X O X .  . . . .  . . . .  . . . .", walls=walls)
    state = play(state, X, {"type": "shift", "line": "row", "index": 1, "direction": "right"})
    assert board(state)[:4] == [None, None, "O", "X"]  # shifted: . X O X, then square 2 erased
    # The toppled Wall is gone; the Wall parallel to the shift (under square 2) stays.
    assert V.view(state, None)["walls"] == [{"cell": 2, "side": "bottom", "owner": O}]


def test_wall_shifted_left_falls_right_and_edge_walls_falling_outward_erase_nothing():
    walls = ((1, "left", O), (4, "right", O))
    state = pos("X O X O  . . . .  . . . .  . . . .", walls=walls)
    state = play(state, X, {"type": "shift", "line": "row", "index": 1, "direction": "left"})
    # Shifted: O X O X; the left edge Wall falls right onto square 1; the right edge Wall
    # falls right, off the grid.
    assert board(state)[:4] == [None, "X", "O", "X"]
    assert V.view(state, None)["walls"] == []


def test_column_shift_topples_horizontal_walls_opposite_to_the_shift():
    state = pos(". . . .  . . X .  . . O .  . . . .", walls=((7, "bottom", X),))
    state = play(state, X, {"type": "shift", "line": "column", "index": 3, "direction": "down"})
    # Shifted down: 7 gets what 3 held (nothing), 11 gets X; the Wall under 7 falls up onto 7.
    assert [at(state, c) for c in (3, 7, 11, 15)] == [None, None, "X", "O"]
    state = pos(". . . .  . . X .  . . O .  . . . .", walls=((7, "bottom", X),))
    state = play(state, X, {"type": "shift", "line": "column", "index": 3, "direction": "up"})
    # Shifted up: 7 gets O, 3 gets X; the Wall falls down onto 11 (now empty).
    assert [at(state, c) for c in (3, 7, 11, 15)] == ["X", "O", None, None]


def test_shift_making_four_with_a_wall_topple_removing_the_finishing_letter_plays_on():
    grid = "X X . X  O O . .  O . . .  . . X ."
    shift = {"type": "shift", "line": "column", "index": 3, "direction": "down"}
    # Without a Wall the X from square 15 wraps round to square 3: four in a row.
    assert winner(play(pos(grid), X, shift)) == X
    # A Wall under square 3 falls up onto it after the Shift and erases that X.
    state = play(pos(grid, walls=((3, "bottom", O),)), X, shift)
    assert V.outcome(state) is None and at(state, 3) is None
    assert state.to_move == (X,)  # X still writes a letter


def test_shift_making_both_x_and_o_score_is_a_draw():
    state = pos("X X X O  O O O .  . . . .  . . . X")
    state = play(state, X, {"type": "shift", "line": "column", "index": 4, "direction": "down"})
    outcome = V.outcome(state)
    assert outcome is not None and outcome.result == "draw"


# -- Dibs Space -----------------------------------------------------------------------


def test_dibs_space_reserves_a_square_to_overwrite_whenever_wanted():
    state = pos(". . . .  . X . .  . . . .  . . . .", to_move=O)
    state = play(state, O, {"type": "dibs", "cell": 6}, write(1))
    assert V.view(state, None)["dibs"] == [{"cell": 6, "owner": O}]
    state = play(state, X, write(2))
    state = play(state, O, write(6))  # a later turn: overwrite the X
    assert at(state, 6) == "O" and V.view(state, None)["dibs"] == []
    assert state.to_move == (X,)


def test_dibs_space_immune_to_shift_erasing_walls_and_swap_until_overwritten():
    state = pos(
        ". X . .  . . . .  . . . .  . . . .",
        dibs={2: O},
        walls=((1, "right", X),),
        held=(("swap", "shift", "wall"), ("dibs", "double", "intersect")),
    )
    refused(state, X, {"type": "swap", "cells": [1, 2]}, "swap-dibs")
    refused(state, X, {"type": "shift", "line": "row", "index": 1, "direction": "right"}, "shift-dibs")
    refused(state, X, {"type": "shift", "line": "column", "index": 2, "direction": "up"}, "shift-dibs")
    # Toppling X's Wall onto square 2 erases nothing there.
    after = play(state, X, {"type": "topple", "cell": 2, "side": "left"})
    assert at(after, 2) == "X" and V.view(after, None)["walls"] == []
    # Once O overwrites it, the square is an ordinary letter again.
    state = play(pos(". X . .  . . . .  . . . .  . . . .", dibs={2: O}, to_move=O), O, write(2))
    state = play(state, X, {"type": "shift", "line": "row", "index": 1, "direction": "right"})
    assert at(state, 3) == "O"


def test_dibs_space_overwriting_an_intersect_with_x_and_o_erases_both_and_the_indicator():
    state = pos(". . . .  . IXO . .  . . . .  . . . .", dibs={6: O}, to_move=O)
    state = play(state, O, write(6))
    assert at(state, 6) == "O" and V.view(state, None)["intersects"] == []


def test_xs_os_and_grid_features_can_still_go_on_a_dibs_space():
    state = pos(EMPTY_GRID, dibs={6: O}, held=(("intersect", "wall", "swap"), ("dibs", "double", "shift")))
    state = play(state, X, {"type": "intersect", "cell": 6}, write(6))
    assert at(state, 6) == "X" and V.view(state, None)["intersects"] == [6]
    state = play(state, O, write(1))
    state = play(state, X, {"type": "wall", "cell": 6, "side": "right"}, write(16))
    # ... and they will probably be overwritten.
    state = play(state, O, write(6))
    assert at(state, 6) == "O" and V.view(state, None)["intersects"] == []


def test_dibs_spaces_cannot_overwrite_walls():
    state = pos(EMPTY_GRID, dibs={6: O}, walls=((6, "right", X), (6, "top", X)), to_move=O)
    state = play(state, O, write(6))
    walls = {(w["cell"], w["side"]) for w in V.view(state, None)["walls"]}
    assert walls == {(6, "right"), (2, "bottom")}


def test_cannot_overwrite_a_dibs_space_once_four_in_a_row_is_achieved():
    state = pos("X X X .  O O . .  O . . .  . . . .", dibs={1: O})
    state = play(state, X, write(4))
    assert winner(state) == X
    refused(state, O, write(1), "game-over")
    assert V.legal_moves(state, O) == []


def test_dibs_space_can_be_placed_and_overwritten_on_the_same_turn():
    state = pos("O O O X  . X . .  . . . .  . . . .", to_move=O)
    state = play(state, O, {"type": "dibs", "cell": 4}, write(4))
    assert winner(state) == O


def test_overwriting_a_dibs_space_is_the_letter_placement_not_a_power_up_use():
    state = pos(". . . .  . X . .  . . . .  . . . .", dibs={6: O}, spent=((), ("dibs",)), to_move=O)
    # O uses another action this turn, then overwrites: the overwrite is the letter.
    state = play(state, O, {"type": "intersect", "cell": 1}, write(6))
    assert state.to_move == (X,)
    assert V.view(state, None)["actions"][O]["used"] == ["dibs", "intersect"]


def test_a_double_letter_on_your_own_dibs_space_overwrites_it():
    # Decision: any letter you write there (the Double's included) overwrites.
    state = pos(". . . .  . IXO . .  . . . .  . . . .", dibs={6: X})
    state = play(state, X, {"type": "double", "cell": 6})
    assert at(state, 6) == "X" and V.view(state, None)["dibs"] == [] and state.to_move == (X,)


def test_dibs_space_cannot_be_placed_twice_on_one_square():
    state = pos(EMPTY_GRID, dibs={6: X}, to_move=O)
    refused(state, O, {"type": "dibs", "cell": 6}, "dibs-taken")


# -- Intersect Space ------------------------------------------------------------------


def test_intersect_space_on_an_empty_space_or_one_holding_an_x_or_o():
    state = pos("X . . .  . . . .  . . . .  . . . .", to_move=O)
    after = play(state, O, {"type": "intersect", "cell": 2})
    assert V.view(after, None)["intersects"] == [2] and at(after, 2) is None
    after = play(state, O, {"type": "intersect", "cell": 1}, write(1))
    assert at(after, 1) == "XO"
    refused(
        pos("I . . .  . . . .  . . . .  . . . .", to_move=O),
        O,
        {"type": "intersect", "cell": 1},
        "intersect-taken",
    )


def test_intersect_space_lets_an_x_and_an_o_share_a_space():
    # Square 6 holds both letters: it counts in X's row and in O's column.
    state = pos("X O . .  . IX . .  . O . .  . . . .", to_move=O)
    state = play(state, O, write(6))
    assert at(state, 6) == "XO"
    refused(state, X, write(6), "square-taken")
    state = play(state, X, write(5))
    state = play(state, O, write(14))
    assert winner(state) == O  # column 2: 2, 6, 10, 14


def test_intersect_spaces_and_their_letters_can_all_be_shifted():
    state = pos(". IXO IO .  . . . .  . . . .  . . . .")
    state = play(state, X, {"type": "shift", "line": "row", "index": 1, "direction": "left"})
    assert board(state)[:4] == ["XO", "O", None, None]
    assert V.view(state, None)["intersects"] == [1, 2]


# -- Wall -----------------------------------------------------------------------------


def test_wall_goes_on_any_grid_border_and_occupies_no_space():
    state = pos(EMPTY_GRID, to_move=O)
    walls = [m for m in V.legal_moves(state, O) if m["type"] == "wall"]
    assert len(walls) == 40  # 24 inside the grid, 16 on its edge
    state = play(state, O, {"type": "wall", "cell": 7, "side": "left"})
    assert V.view(state, None)["walls"] == [{"cell": 6, "side": "right", "owner": O}]
    state = play(state, O, write(6))
    state = play(state, X, write(7))
    assert at(state, 6) == "O" and at(state, 7) == "X"
    later = pos(
        EMPTY_GRID,
        walls=((6, "right", O),),
        held=(("wall", "swap", "shift"), ("dibs", "double", "intersect")),
    )
    refused(later, X, {"type": "wall", "cell": 7, "side": "left"}, "wall-taken")


def test_wall_prevents_an_otherwise_successful_row_or_column():
    state = pos(". . . .  X X X .  O O . .  O . . .", walls=((6, "right", O),))
    state = play(state, X, write(8))
    assert V.outcome(state) is None
    state = pos("X O . .  X O . .  X . . .  . . . .", walls=((5, "bottom", O),))
    assert V.outcome(play(state, X, write(13))) is None


def test_wall_does_not_block_a_diagonal():
    # Decision: the text says Walls block rows and columns; a diagonal crosses no border.
    walls = ((1, "right", O), (1, "bottom", O), (6, "right", O), (6, "bottom", O))
    state = pos("X O O .  . X . .  . O X .  . . . .", walls=walls)
    assert winner(play(state, X, write(16))) == X


def test_wall_on_the_very_edge_of_the_grid_blocks_nothing():
    state = pos(". . . .  X X X .  O O . .  O . . .", walls=((5, "left", O), (8, "right", O), (8, "top", O)))
    assert winner(play(state, X, write(8))) == X


def test_wall_toppled_by_its_owner_erases_a_space_perpendicular_to_it():
    grid = ". . . .  . X O .  . . . .  . . . ."
    state = pos(grid, walls=((6, "right", O),), to_move=O)
    left = play(state, O, {"type": "topple", "cell": 6, "side": "right"})
    assert at(left, 6) is None and at(left, 7) == "O" and V.view(left, None)["walls"] == []
    right = play(state, O, {"type": "topple", "cell": 7, "side": "left"})
    assert at(right, 7) is None and at(right, 6) == "X"
    # Only whoever placed it can topple it, and not once the game has ended.
    refused(
        pos(grid, walls=((6, "right", O),)),
        X,
        {"type": "topple", "cell": 6, "side": "right"},
        "not-your-wall",
    )
    refused(state, O, {"type": "topple", "cell": 6, "side": "left"}, "no-wall")
    over = play(pos("X X X .  O O . .  O . . .  . . . .", walls=((6, "right", O),)), X, write(4))
    refused(over, O, {"type": "topple", "cell": 6, "side": "right"}, "game-over")
    # An edge Wall can only fall onto the grid.
    edge = pos(grid, walls=((5, "left", O),), to_move=O)
    topples = [m for m in V.legal_moves(edge, O) if m["type"] == "topple"]
    assert topples == [{"type": "topple", "cell": 5, "side": "left"}]


def test_topple_a_wall_then_write_your_letter_in_that_space():
    state = pos(
        "X X X .  . . . .  O O O X  . . . .", walls=((11, "right", O),), to_move=O, spent=((), ("wall",))
    )
    state = play(state, O, {"type": "topple", "cell": 12, "side": "left"}, write(12))
    assert at(state, 12) == "O" and winner(state) == O


def test_toppled_walls_only_erase_xs_and_os_not_dibs_or_intersect_indicators():
    state = pos(
        ". . . .  . IXO . .  . . . .  . . . .",
        walls=((6, "right", O), (2, "right", O)),
        dibs={3: X},
        to_move=O,
    )
    state = play(state, O, {"type": "topple", "cell": 6, "side": "right"})
    assert at(state, 6) is None and V.view(state, None)["intersects"] == [6]
    state = play(state, O, {"type": "topple", "cell": 3, "side": "left"})
    assert V.view(state, None)["dibs"] == [{"cell": 3, "owner": X}]


def test_placing_a_wall_counts_as_a_power_up_use_and_knocking_it_over_does_not():
    state = pos(". . . .  . X . .  . . . .  . . . .", to_move=O)
    state = play(state, O, {"type": "wall", "cell": 6, "side": "right"}, write(1))
    assert V.view(state, None)["actions"][O]["used"] == ["wall"]
    state = play(state, X, write(16))
    # Toppling is free: O still uses a special action in the same turn.
    state = play(
        state, O, {"type": "topple", "cell": 6, "side": "right"}, {"type": "intersect", "cell": 16}, write(16)
    )
    assert V.view(state, None)["actions"][O]["used"] == ["wall", "intersect"]
    assert at(state, 6) is None and at(state, 16) == "XO"


def test_toppling_a_wall_that_blocked_a_four_lets_it_win():
    # Decision: a toppled Wall lies flat and no longer blocks. Here it falls on square 7,
    # X's Dibs Space (immune to toppling Walls), so row 2 keeps its four Xs.
    state = pos(
        ". . . .  X X X X  O O . .  O . . .",
        walls=((6, "right", O),),
        dibs={7: X},
        to_move=O,
        spent=((), ("wall",)),
    )
    assert V.outcome(state) is None
    state = play(state, O, {"type": "topple", "cell": 7, "side": "left"})
    assert winner(state) == X


# -- Meta and Void variations ---------------------------------------------------------


def test_meta_variation_allows_the_opponents_picks_and_repeats_but_still_three_each():
    state = draft(["double", "double", "double", "swap", "double", "double"], {"meta": True})
    actions = V.view(state, None)["actions"]
    assert actions[O]["held"] == ["double", "double", "double"]
    assert actions[X]["held"] == ["double", "swap", "double"]
    assert V.view(state, None)["phase"] == "play"
    picks = [m for m in V.legal_moves(V.new_game({"meta": True}, seed=1), O)]
    assert len(picks) == 6


def test_meta_variation_repeated_action_can_be_used_once_per_copy():
    state = pos(
        ". . . .  . . . .  . . . .  . . . .",
        held=(("double", "double", "swap"), ("wall", "wall", "wall")),
        meta=True,
    )
    state = play(state, X, {"type": "double", "cell": 1}, write(2))
    state = play(state, O, write(5))
    state = play(state, X, {"type": "double", "cell": 3}, write(16))
    state = play(state, O, write(6))
    refused(state, X, {"type": "double", "cell": 7}, "action-used")
    assert V.view(state, None)["actions"][X]["remaining"] == ["swap"]


def test_void_variation_each_player_places_a_void_before_playing():
    state = draft(STANDARD_DRAFT, {"void": True})
    assert V.view(state, None)["phase"] == "void" and state.to_move == (X,)
    assert {m["type"] for m in V.legal_moves(state, X)} == {"void"}
    refused(state, X, write(1), "wrong-phase")
    state = play(state, X, {"type": "void", "cell": 6})
    assert state.to_move == (O,)
    refused(state, O, {"type": "void", "cell": 6}, "void-taken")
    state = play(state, O, {"type": "void", "cell": 11})
    assert V.view(state, None)["voids"] == [6, 11]
    assert V.view(state, None)["phase"] == "play" and state.to_move == (X,)


def test_void_spaces_cannot_have_xs_or_os_written_on_them():
    state = pos(". . . .  . V . .  . . . .  . . . V", void=True)
    refused(state, X, write(6), "void-square")
    refused(state, X, {"type": "double", "cell": 6}, "void-square")
    assert all(m.get("cell") != 6 for m in V.legal_moves(state, X) if m["type"] in ("write", "double"))
    refused(
        pos(". . . .  . V . .  . . . .  . . . V", void=True, to_move=O),
        O,
        {"type": "dibs", "cell": 6},
        "void-square",
    )
    refused(
        pos(". . . .  . V . .  . . . .  . . . V", void=True, to_move=O),
        O,
        {"type": "intersect", "cell": 6},
        "void-square",
    )


def test_void_spaces_cannot_be_erased():
    state = pos(". . . .  . V . .  . . . .  . . . V", void=True, walls=((6, "right", O),), to_move=O)
    state = play(state, O, {"type": "topple", "cell": 6, "side": "right"})
    assert V.view(state, None)["voids"] == [6, 16]
    state = pos(". . . .  V X O .  . . . .  . . . V", void=True, walls=((5, "right", O),))
    state = play(state, X, {"type": "shift", "line": "row", "index": 2, "direction": "left"})
    # Shifted: X O . V; the Wall between 5 and 6 falls right onto 6 (O erased), the Void stays.
    assert board(state)[4:8] == ["X", None, None, None] and V.view(state, None)["voids"] == [8, 16]


def test_void_spaces_can_be_swapped_or_shifted():
    state = play(pos(". . . .  . V X .  . . . .  . . . V", void=True), X, {"type": "swap", "cells": [6, 7]})
    assert V.view(state, None)["voids"] == [7, 16] and at(state, 6) == "X"
    state = play(pos(". . . .  . V . .  . . . .  . . . V", void=True), X, {"type": "swap", "cells": [6, 1]})
    assert V.view(state, None)["voids"] == [1, 16]
    state = play(
        pos(". . . .  . V . .  . . . .  . . . V", void=True),
        X,
        {"type": "shift", "line": "column", "index": 2, "direction": "down"},
    )
    assert V.view(state, None)["voids"] == [10, 16]
    refused(
        pos(". . . .  . V V .  . . . .  . . . .", void=True),
        X,
        {"type": "swap", "cells": [6, 7]},
        "swap-same",
    )


def test_both_variations_together():
    state = draft(["wall", "wall", "wall", "dibs", "dibs", "dibs"], {"meta": True, "void": True})
    state = play(state, X, {"type": "void", "cell": 1})
    state = play(state, O, {"type": "void", "cell": 16})
    assert V.view(state, None)["voids"] == [1, 16] and state.to_move == (X,)


# -- Decisions: when the game ends without four in a row ------------------------------

FULL_BUT_16 = "X X O O  O O X X  X X O O  O O X ."


def test_nowhere_left_to_write_a_letter_is_a_draw():
    state = pos(FULL_BUT_16, spent=(("double", "swap", "shift"), ("dibs", "intersect", "wall")))
    state = play(state, X, write(16))
    outcome = V.outcome(state)
    assert outcome is not None and outcome.result == "draw" and "nowhere" in outcome.reason
    assert state.to_move == ()


def test_a_full_grid_plays_on_while_a_special_action_can_make_room():
    state = pos(FULL_BUT_16, spent=(("double", "swap", "shift"), ("dibs", "wall")))
    state = play(state, X, write(16))
    assert V.outcome(state) is None and state.to_move == (O,)
    # O must use Intersect (the only way to make room) before writing.
    assert {m["type"] for m in V.legal_moves(state, O)} == {"intersect"}
    state = play(state, O, {"type": "intersect", "cell": 1}, write(1))
    assert at(state, 1) == "XO"


def test_a_step_that_would_leave_no_room_for_the_letter_is_refused():
    # One empty square: a Double there would leave nowhere for the letter.
    state = pos(FULL_BUT_16)
    refused(state, X, {"type": "double", "cell": 16}, "no-room")
    assert "double" not in {m["type"] for m in V.legal_moves(state, X)}
    # A full grid for O: Shift makes no room, Intersect does.
    full = pos(
        FULL_BUT_16.replace(".", "X"),
        held=(("double", "swap", "wall"), ("shift", "intersect", "double")),
        to_move=O,
    )
    refused(full, O, {"type": "shift", "line": "row", "index": 1, "direction": "left"}, "no-room")
    assert {m["type"] for m in V.legal_moves(full, O)} == {"intersect"}


# -- Notation, errors and storage -----------------------------------------------------


@pytest.mark.parametrize(
    ("move", "text"),
    [
        ({"type": "pick", "action": "dibs"}, "pick Dibs Space"),
        ({"type": "void", "cell": 6}, "void 6"),
        ({"type": "write", "cell": 6}, "write 6"),
        ({"type": "double", "cell": 6}, "double 6"),
        ({"type": "swap", "cells": [11, 6]}, "swap 6<>11"),
        ({"type": "shift", "line": "row", "index": 2, "direction": "right"}, "shift row 2 right"),
        ({"type": "shift", "line": "column", "index": 4, "direction": "up"}, "shift column 4 up"),
        ({"type": "dibs", "cell": 6}, "dibs 6"),
        ({"type": "intersect", "cell": 6}, "intersect 6"),
        ({"type": "wall", "cell": 7, "side": "left"}, "wall 6 right"),
        ({"type": "topple", "cell": 7, "side": "left"}, "topple onto 7 from left"),
        ({"nonsense": 1}, "{'nonsense': 1}"),
    ],
)
def test_describe_move_gives_a_short_notation(move, text):
    assert V.describe_move(move) == text


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (None, "malformed-move"),
        ([1, 2], "malformed-move"),
        ({"cell": 3}, "unknown-move"),
        ({"type": "jump", "cell": 3}, "unknown-move"),
        ({"type": ["write"], "cell": 3}, "unknown-move"),
        ({"type": "write"}, "malformed-move"),
        ({"type": "write", "cell": 3, "extra": 1}, "malformed-move"),
        ({"type": "write", "cell": "3"}, "malformed-move"),
        ({"type": "write", "cell": True}, "malformed-move"),
        ({"type": "write", "cell": 99}, "out-of-range"),
        ({"type": "swap", "cells": [3]}, "malformed-move"),
        ({"type": "swap", "cells": [3, 3]}, "malformed-move"),
        ({"type": "swap", "cells": "36"}, "malformed-move"),
        ({"type": "wall", "cell": 3, "side": "middle"}, "malformed-move"),
        ({"type": "topple", "cell": 3, "side": None}, "malformed-move"),
    ],
)
def test_malformed_moves_are_refused_with_a_stable_code(move, code):
    refused(pos(), X, move, code)


def test_moves_from_the_wrong_seat_are_refused():
    state = pos()
    refused(state, O, write(1), "not-your-turn")
    refused(state, 7, write(1), "bad-seat")
    assert V.legal_moves(state, O) == []


def test_options_are_validated():
    for bad in ({"meta": "yes"}, {"void": 1}, {"size": 5}):
        with pytest.raises(RuleError) as err:
            V.new_game(bad, seed=1)
        assert err.value.code == "bad-options"
    schema = V.options_schema["properties"]
    assert all({"default", "title", "description"} <= set(spec) for spec in schema.values())


def test_load_refuses_damaged_data():
    data = V.dump(pos())
    for key, value in (
        ("cells", ["Z"] * 16),
        ("walls", [{"cell": 40, "side": "left", "owner": 0}]),
        ("held", "x"),
    ):
        broken = dict(data, **{key: value})
        with pytest.raises(RuleError) as err:
            V.load(broken)
        assert err.value.code == "bad-state"
    with pytest.raises(RuleError):
        V.load({})


def test_view_shows_board_features_and_actions():
    state = pos(
        ". . . .  . IXO . .  . . V .  X . . .", walls=((6, "right", O),), dibs={1: X}, spent=(("swap",), ())
    )
    view = V.view(state, O)
    assert len(view["board"]) == 16 and view["board"][5] == "XO" and view["board"][12] == "X"
    assert view["intersects"] == [6] and view["voids"] == [11]
    assert view["dibs"] == [{"cell": 1, "owner": X}]
    assert view["walls"] == [{"cell": 6, "side": "right", "owner": O}]
    assert view["actions"][X]["used"] == ["swap"] and view["actions"][X]["remaining"] == ["double", "shift"]
    assert view["to_move"] == [X] and view["outcome"] is None
    json.dumps(view)
