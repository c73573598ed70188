"""Official T-Tic-T-Tac-Toe (seed text 001): one test (at least) per clause, named after it.

Positions are built with ``position()`` from a 5x5 picture, squares 1..25 row by row.
"""

from __future__ import annotations

import json
from typing import cast

import pytest

from games.rules import RuleError, get_variant
from games.rules.variants.t_tic_t_tac_toe import TTicTTacToe
from games.rules.variants.t_tic_t_tac_toe import geometry as geo
from games.rules.variants.t_tic_t_tac_toe.match import TTTMatch
from games.rules.variants.t_tic_t_tac_toe.notation import WALLS, move_of
from games.rules.variants.t_tic_t_tac_toe.state import TTTState

V = get_variant("t-tic-t-tac-toe")
assert isinstance(V, TTicTTacToe)


def grid(picture: str) -> dict[int, str]:
    """{square: letter} from five rows of five characters (X, O or .)."""
    rows = [row.split() for row in picture.strip().splitlines()]
    assert len(rows) == 5 and all(len(r) == 5 for r in rows)
    return {r * 5 + c + 1: v for r, row in enumerate(rows) for c, v in enumerate(row) if v != "."}


def position(
    picture: str = "",
    version: str = "2.0",
    to_move: int = 0,
    ply: int = 10,
    blockages: tuple[tuple[str, str, int | None, int], ...] = (),
    spent: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
    keep_centre_wall: bool = True,
    **options: object,
) -> TTTState:
    """A game in the middle: ``blockages`` are (kind, name, owner, placed_at) entries."""
    state = V.new_game({"version": version, **options}, seed=1)
    data = V.dump(state)
    cells: list[str | None] = [None] * 25
    for square, letter in grid(picture).items() if picture else ():
        cells[square - 1] = letter
    data["cells"] = cells
    data["ply"] = ply
    data["to_move"] = [to_move]
    data["spent"] = [list(spent[0]), list(spent[1])]
    if not keep_centre_wall:
        data["blockages"] = []
    for kind, name, owner, placed_at in blockages:
        mask = geo.LINE_MASK[name] if kind == "curtain" else WALLS[name]
        data["blockages"].append([kind, name, owner, mask, placed_at, placed_at + 4])
    return cast(TTTState, V.load(data))


def play(state: TTTState, *moves: dict) -> TTTState:
    for move in moves:
        state = cast(TTTState, V.apply(state, state.to_move[0], move))
    return state


def refused(state: TTTState, seat: int, move: object, code: str) -> RuleError:
    before = json.dumps(V.dump(state), sort_keys=True)
    with pytest.raises(RuleError) as err:
        V.apply(state, seat, move)
    assert err.value.code == code, err.value
    assert json.dumps(V.dump(state), sort_keys=True) == before  # a sucka changes nothing
    assert move not in V.legal_moves(state, seat)
    return err.value


def place(square: int) -> dict:
    return {"action": "place", "square": square}


EMPTY = ". . . . .\n" * 5


# -- Rule 1.00: the boards -------------------------------------------------------------------------


def test_1_01_a_the_classic_game_of_the_preliminaries_is_3x3():
    step = TTTMatch.new(seed=1).record_rps(0).next_step()
    assert step["variant"] == "classic"
    classic = get_variant("classic")
    assert len(classic.legal_moves(classic.new_game(step["options"], seed=1), 0)) == 9


def test_1_01_b_the_board_is_5x5_with_squares_1_to_25():
    state = V.new_game({"version": "2.0"}, seed=1)
    assert len(V.view(state, None)["board"]) == 25
    assert [m["square"] for m in V.legal_moves(state, 0) if "symbol" not in m] == list(range(1, 26))


def test_1_01_c_blockages_checkpoints_and_symbols_each_have_their_place_in_the_view():
    state = position(". . . . .\n" * 4 + "X . . . .", blockages=(("curtain", "h2", 1, 3),))
    state = play(state, {"action": "checkpoint", "line": "h2"})
    view = V.view(state, None)
    assert view["board"][20] == "X"
    assert view["blockages"][-1]["segments"] == ["6|11", "7|12", "8|13", "9|14", "10|15"]
    assert view["checkpoints"][0]["target"] == "h2"


# -- Rule 2.00: preliminaries ------------------------------------------------------------------------


def test_2_01_each_player_has_their_own_pen_and_letter():
    with pytest.raises(RuleError) as err:
        V.new_game({"symbols": ["X", "X"]})
    assert err.value.code == "bad-options"


def test_2_02_rock_paper_scissors_comes_first():
    step = TTTMatch.new(seed=1).next_step()
    assert step["stage"] == "rps" and step["variant"] == "rock-paper-scissors"


def test_2_02_a_rock_beats_scissors_paper_beats_rock_scissors_beat_paper():
    rps = get_variant("rock-paper-scissors")
    for winner_throw, loser_throw in (("rock", "scissors"), ("paper", "rock"), ("scissors", "paper")):
        state = rps.new_game(None, seed=1)
        state = rps.apply(rps.apply(state, 0, {"throw": loser_throw}), 1, {"throw": winner_throw})
        outcome = rps.outcome(state)
        match = TTTMatch.new(seed=1).record_rps_outcome(outcome)
        assert match.x_player == 1


def test_2_02_b_a_tie_is_thrown_again():
    match = TTTMatch.new(seed=1).record_rps(None).record_rps(None)
    assert match.next_step()["stage"] == "rps" and match.rps_results == (None, None)
    assert match.record_rps(0).next_step()["stage"] == "classic"


def test_2_03_a_b_the_rps_winner_is_x_and_goes_first_in_the_classic_game():
    step = TTTMatch.new(seed=1).record_rps(1).next_step()
    assert step == {**step, "stage": "classic", "x": 1, "player_one": 1}
    assert step["options"] == {"symbols": ["X", "O"], "first": "X"}


def test_2_03_c_the_classic_game_is_played_until_a_winner_then_the_match_begins():
    match = TTTMatch.new(seed=1).record_rps(0)
    classic = get_variant("classic")
    state = classic.new_game(match.next_step()["options"], seed=1)
    for seat, cell in ((0, 1), (1, 4), (0, 2), (1, 5), (0, 3)):
        state = classic.apply(state, seat, {"cell": cell})
    match = match.record_classic_outcome(classic.outcome(state))
    assert match.chooser == 0 and match.next_step()["stage"] == "version"


def test_2_03_d_a_cats_game_goes_back_to_rps_whose_winner_is_x_next():
    match = TTTMatch.new(seed=1).record_rps(0).record_classic(None)
    assert match.next_step()["stage"] == "rps"
    match = match.record_rps(1)  # NOTE: the former X lost rps, so is O now
    assert match.x_player == 1 and match.next_step()["x"] == 1
    assert match.classic_results == (None,)


def test_2_04_2_05_the_classic_winner_chooses_the_version():
    match = TTTMatch.new(seed=1).record_rps(0).record_classic(1)
    with pytest.raises(RuleError) as err:
        match.choose_version(0, "1.0")
    assert err.value.code == "not-your-choice"
    with pytest.raises(RuleError):
        match.choose_version(1, "3.0")
    assert match.choose_version(1, "2.0").next_step()["version"] == "2.0"


def test_2_05_a_version_1_has_a_wall_around_the_centre_and_supers_only_goosh():
    state = V.new_game({"version": "1.0"}, seed=1)
    assert [b.name for b in state.blockages] == ["around 13"]
    after = play(position("O . . . .\n" + ". . . . .\n" * 4, version="1.0"), {"action": "super", "square": 1})
    assert after.cells[:2] == (None, None) and after.cells[5:7] == (None, None)


def test_2_05_b_version_2_starts_empty_and_supers_goosh_and_place():
    state = V.new_game({"version": "2.0"}, seed=1)
    assert state.blockages == ()
    after = play(position("O . . . .\n" + ". . . . .\n" * 4), {"action": "super", "square": 1})
    assert after.cells[0] is None and after.cells[1] == "X" and after.cells[5:7] == ("X", "X")


def test_2_05_c_each_version_ignores_the_others_super_rule():
    # 5.2.02 (no winning super) is a Version 2.0 rule; in 1.0 a super never places anyway.
    picture = "X X . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . ."
    refused(position(picture, version="2.0"), 0, {"action": "super", "square": 3}, "super-would-win")
    after = play(position(picture, version="1.0"), {"action": "super", "square": 3})
    assert after.outcome is None and after.cells[2] is None


# -- Rules 3.1.00 / 3.2.00: starting and ending ------------------------------------------------------


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_3_x_01_the_letters_stay_and_o_may_go_first(version):
    state = V.new_game({"version": version, "symbols": ["O", "X"], "first": "O"}, seed=1)
    assert state.to_move == (0,)
    after = V.apply(state, 0, place(1))
    assert after.cells[0] == "O"
    match = TTTMatch.new(seed=1).record_rps(0).record_classic(1).choose_version(1, version)
    assert match.game_options() == {"version": version, "symbols": ["O", "X"], "first": "O"}


def test_3_1_02_the_centre_wall_follows_the_rules_of_player_walls():
    state = V.new_game({"version": "1.0"}, seed=1)
    moves = [place(1), place(25), place(2), place(24)]
    state = play(state, *moves)
    # (a) two full turns of protection: moves 1-4; then Ronald Reagan may tear it down.
    state_before = play(V.new_game({"version": "1.0"}, seed=1), *moves[:3])
    refused(state_before, 1, {"action": "tear-down", "around": 13}, "still-protected")
    after = play(state, {"action": "tear-down", "around": 13})
    assert after.blockages == ()
    # ... and a Checkpoint Charlie may protect it like any other wall.
    protected = play(state, {"action": "checkpoint", "around": 13})
    assert protected.blockages[0].protected_until == 9


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_3_x_03_the_first_player_places_a_symbol_anywhere_and_only_that(version):
    state = V.new_game({"version": version}, seed=1)
    squares = {m["square"] for m in V.legal_moves(state, 0) if "symbol" not in m}
    assert squares == set(range(1, 26))
    assert {m["action"] for m in V.legal_moves(state, 0)} == {"place"}
    refused(state, 0, {"action": "curtain", "line": "h1"}, "first-move-is-a-symbol")
    refused(state, 0, {"action": "wall", "around": 7}, "first-move-is-a-symbol")


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_3_x_04_the_second_player_may_place_a_symbol_or_a_blockage(version):
    state = play(V.new_game({"version": version}, seed=1), place(1))
    actions = {m["action"] for m in V.legal_moves(state, 1)}
    assert {"place", "curtain", "wall"} <= actions
    after = V.apply(state, 1, {"action": "curtain", "line": "v1"})
    assert after.to_move == (0,)


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_3_x_05_three_in_a_row_unobstructed_wins(version):
    state = position("X X . . .\nO O . . .\n" + ". . . . .\n" * 3, version=version)
    after = V.apply(state, 0, place(3))
    assert V.outcome(after).winner == 0 and after.winning_line == (1, 2, 3)
    assert after.to_move == () and V.legal_moves(after, 1) == []
    # Obstructed by a blockage, the same three are no win.
    blocked = position(
        "X X . . .\nO O . . .\n" + ". . . . .\n" * 3, version=version, blockages=(("wall", "2|3+7|8", 1, 5),)
    )
    assert V.outcome(V.apply(blocked, 0, place(3))) is None


def test_3_x_05_exception_both_players_cannot_win_at_once():
    # X's 1-2-3 and O's 11-12-13 are both cut by v2's curtain only: snipping it is refused.
    picture = "X X X . .\n. . . . .\nO O O . .\n. . . . .\n. . . . ."
    state = position(picture, blockages=(("curtain", "v2", 1, 2),), keep_centre_wall=False)
    err = refused(state, 0, {"action": "snip", "line": "v2"}, "both-would-win")
    assert "both players" in err.message


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_3_x_06_the_loser_of_the_previous_game_goes_first(version):
    match = TTTMatch.new(seed=1).record_rps(0).record_classic(0).choose_version(0, version)
    assert match.next_step()["player_one"] == 0  # 3.x.03: the classic winner first
    match = match.record_game(0)
    assert match.next_step()["player_one"] == 1
    assert match.game_options()["first"] == "O"
    # Decision: after a drawn game Player One alternates.
    assert match.record_game(None).next_step()["player_one"] == 0


def test_3_x_07_five_games_most_wins_wins_and_3_x_08_all_five_are_played():
    match = TTTMatch.new(seed=1).record_rps(1).record_classic(1).choose_version(1, "1.0")
    for number, winner in enumerate((1, 1, 1), start=1):
        assert match.next_step()["number"] == number
        match = match.record_game(winner)
    assert not match.is_over and match.next_step()["number"] == 4  # 3.x.08
    match = match.record_game(0).record_game(0)
    assert match.is_over and match.score == (2, 3) and match.winner == 1 and match.result == "win"
    with pytest.raises(RuleError):
        match.record_game(0)


def test_3_x_07_decision_equal_wins_draw_the_match_and_the_match_round_trips():
    match = TTTMatch.new(seed=1).record_rps(0).record_classic(0).choose_version(0, "2.0")
    for winner in (0, 1, None, 1, 0):
        match = match.record_game(winner)
        assert TTTMatch.load(json.loads(json.dumps(match.dump()))) == match
    assert match.result == "draw" and match.winner is None and match.score == (2, 2)


def test_match_takes_game_outcomes_in_game_seats():
    match = TTTMatch.new(seed=1).record_rps(0).record_classic(1).choose_version(1, "2.0")
    state = V.new_game(match.game_options(), seed=1)
    state = play(state, place(1), place(6), place(2), place(7), place(3))
    match = match.record_game_outcome(V.outcome(state))  # seat 0 was player 1, who goes first
    assert match.score == (0, 1)


# -- Rule 4.00: blockages ---------------------------------------------------------------------------------


def test_4_01_a_blockage_separates_adjacent_symbols():
    state = position("X X . . .\n" + ". . . . .\n" * 4, blockages=(("curtain", "v2", 1, 5),))
    assert V.outcome(V.apply(state, 0, place(3))) is None


def test_4_02_a_blockage_is_a_players_turn():
    state = position(EMPTY)
    after = V.apply(state, 0, {"action": "wall", "around": 7})
    assert after.to_move == (1,) and after.ply == state.ply + 1 and after.cells == state.cells


def test_4_03_there_are_two_kinds_of_blockage():
    state = position(EMPTY)
    kinds = {m["action"] for m in V.legal_moves(state, 0)} & {"curtain", "wall"}
    assert kinds == {"curtain", "wall"}


def test_4_04_no_curtain_on_the_first_turn():
    refused(
        V.new_game({"version": "2.0"}, seed=1),
        0,
        {"action": "curtain", "line": "h2"},
        "first-move-is-a-symbol",
    )


def test_4_04_a_a_curtain_runs_the_whole_length_of_one_of_eight_lines():
    state = position(EMPTY)
    lines = sorted(m["line"] for m in V.legal_moves(state, 0) if m["action"] == "curtain")
    assert lines == ["h1", "h2", "h3", "h4", "v1", "v2", "v3", "v4"]
    after = V.apply(state, 0, {"action": "curtain", "line": "v3"})
    assert V.view(after, None)["blockages"][0]["segments"] == ["3|4", "8|9", "13|14", "18|19", "23|24"]
    refused(state, 0, {"action": "curtain", "line": "h5"}, "no-such-line")


def test_4_04_b_one_curtain_each_per_game_four_quarters_possible():
    state = play(position(EMPTY), {"action": "curtain", "line": "h2"}, {"action": "curtain", "line": "v2"})
    refused(state, 0, {"action": "curtain", "line": "h3"}, "curtain-used")
    assert {b.name for b in state.blockages} == {"h2", "v2"}
    # The four quarters: nothing crosses between them, diagonally either.
    assert geo.step_blocked(7, 13, state.blocked) and geo.step_blocked(8, 12, state.blocked)


def test_4_04_c_d_a_curtain_cannot_be_snipped_for_two_full_turns_then_can():
    state = play(position(EMPTY), {"action": "curtain", "line": "h2"})  # move 11
    assert V.view(state, None)["blockages"][0]["protected"] is True
    assert V.view(state, None)["blockages"][0]["protected_moves_left"] == 4
    for square in (1, 2, 3):  # moves 12, 13, 14
        refused(state, state.to_move[0], {"action": "snip", "line": "h2"}, "still-protected")
        state = V.apply(state, state.to_move[0], place(square))
    refused(state, 0, {"action": "snip", "line": "h2"}, "still-protected")  # move 15 is still protected
    state = V.apply(state, 0, place(4))
    assert V.view(state, None)["blockages"][0]["protected"] is False
    after = V.apply(state, 1, {"action": "snip", "line": "h2"})  # move 16: two full turns have expired
    assert after.blockages == ()


def test_4_04_d_a_checkpoint_extends_a_curtains_protection_by_two_full_turns():
    state = play(position(EMPTY), {"action": "curtain", "line": "h2"}, {"action": "checkpoint", "line": "h2"})
    assert state.blockages[0].protected_until == 15 + 4
    for square in range(1, 8):  # moves 13..19
        refused(state, state.to_move[0], {"action": "snip", "line": "h2"}, "still-protected")
        state = V.apply(state, state.to_move[0], place(square))
    assert V.apply(state, state.to_move[0], {"action": "snip", "line": "h2"}).blockages == ()


def test_4_04_d_e_f_wire_cutters_snip_and_scissors_mark_it_in_the_history():
    state = position(EMPTY, blockages=(("curtain", "h2", 1, 1),))
    after = V.apply(state, 0, {"action": "snip", "line": "h2"})
    assert state.wire_cutters == 1001 and after.wire_cutters == 1000
    event = after.history[-1]
    assert event.kind == "snip" and event.redraw.startswith("7.01(c)")
    refused(
        position(EMPTY, blockages=(("wall", "around 7", 1, 1),)),
        0,
        {"action": "snip", "around": 7},
        "wrong-tool",
    )
    refused(
        position(EMPTY, blockages=(("curtain", "h2", 1, 1),)),
        0,
        {"action": "tear-down", "line": "h2"},
        "wrong-tool",
    )
    refused(
        position(EMPTY, blockages=(("wall", "around 7", 1, 1),)),
        0,
        {"action": "tear-down", "around": 8},
        "no-such-blockage",
    )


def test_4_05_no_wall_on_the_first_turn():
    refused(
        V.new_game({"version": "2.0"}, seed=1), 0, {"action": "wall", "around": 1}, "first-move-is-a-symbol"
    )


def test_4_05_a_a_wall_is_two_adjacent_segments_in_a_straight_line():
    state = position(EMPTY)
    after = V.apply(state, 0, {"action": "wall", "segments": ["9|14", "8|13"]})
    assert after.blockages[0].name == "8|13+9|14"
    refused(state, 0, {"action": "wall", "segments": ["8|13", "13|14"]}, "bad-wall")  # bent
    refused(state, 0, {"action": "wall", "segments": ["8|13", "10|15"]}, "bad-wall")  # not adjacent
    refused(state, 0, {"action": "wall", "segments": ["8|13", "8|14"]}, "no-such-segment")
    walls = [m for m in V.legal_moves(state, 0) if m["action"] == "wall" and "segments" in m]
    assert len(walls) == 8 * 4


def test_4_05_b_a_wall_may_surround_one_square():
    state = position(EMPTY)
    after = V.apply(state, 0, {"action": "wall", "around": 7})
    assert sorted(V.view(after, None)["blocked_segments"]) == sorted(["2|7", "7|12", "6|7", "7|8"])
    corner = V.apply(state, 0, {"action": "wall", "around": 1})  # the border sides separate nothing
    assert V.view(corner, None)["blocked_segments"] == ["1|2", "1|6"]


def test_4_05_c_a_diagonal_goes_around_a_walls_end_but_not_through_it():
    # Straight wall on h2 under squares 7 and 8: its middle point is the corner of 7, 8, 12, 13.
    wall = WALLS["7|12+8|13"]
    assert geo.step_blocked(7, 13, wall) and geo.step_blocked(8, 12, wall)  # through the middle
    assert not geo.step_blocked(8, 14, wall) and not geo.step_blocked(9, 13, wall)  # round the right end
    assert not geo.step_blocked(6, 12, wall) and not geo.step_blocked(7, 11, wall)  # round the left end
    # A wall around 13: its corner blocks the diagonal into 13, not the one going past it.
    around = WALLS["around 13"]
    assert geo.step_blocked(7, 13, around) and geo.step_blocked(13, 19, around)
    assert not geo.step_blocked(8, 12, around) and not geo.step_blocked(14, 18, around)
    state = position(". . . . .\n. X . . .\n. . . . .\n. . . X .\n. . . . .", version="1.0", ply=10)
    assert V.outcome(V.apply(state, 0, place(13))) is None  # 7-13-19 passes through the wall
    state = position(". . X . .\n. X . . .\n. . . . .\n. . . . .\n. . . . .", version="1.0", ply=10)
    assert V.outcome(V.apply(state, 0, place(11))).winner == 0  # 3-7-11 just goes past it


def test_4_05_d_one_wall_each_per_game():
    state = play(position(EMPTY), {"action": "wall", "around": 1}, place(25))
    refused(state, 0, {"action": "wall", "around": 5}, "wall-used")


def test_4_05_e_f_g_h_a_wall_is_protected_two_whole_turns_then_ronald_reagan_tears_it_down():
    state = play(position(EMPTY), {"action": "wall", "around": 7})  # move 11
    for square in (1, 2, 3, 4):  # moves 12..15
        refused(state, state.to_move[0], {"action": "tear-down", "around": 7}, "still-protected")
        state = V.apply(state, state.to_move[0], place(square + 20))
    after = V.apply(state, 1, {"action": "tear-down", "around": 7})  # move 16
    assert after.blockages == () and after.ronald_reagans == 419 and state.ronald_reagans == 420
    assert after.history[-1].kind == "tear-down" and after.history[-1].redraw.startswith("7.01(d)")
    refused(
        position(EMPTY, blockages=(("curtain", "h2", 1, 1),)),
        0,
        {"action": "tear-down", "around": 7},
        "no-such-blockage",
    )


def test_4_05_f_a_wall_cannot_be_torn_down_if_both_would_win():
    # The wall on v2 beside rows 1 and 2 cuts X's 1-2-3 and O's 6-7-8 alike.
    picture = "X X X . .\nO O O . .\n" + ". . . . .\n" * 3
    state = position(picture, blockages=(("wall", "2|3+7|8", 1, 1),), keep_centre_wall=False)
    refused(state, 0, {"action": "tear-down", "segments": ["2|3", "7|8"]}, "both-would-win")
    # Decision: with O's line gone the tear-down is allowed, even by O, and X wins by it.
    one = position(
        picture.replace("O O O", "O O ."),
        to_move=1,
        blockages=(("wall", "2|3+7|8", 1, 1),),
        keep_centre_wall=False,
    )
    assert V.outcome(V.apply(one, 1, {"action": "tear-down", "segments": ["2|3", "7|8"]})).winner == 0


def test_4_06_a_b_c_checkpoint_once_per_game_disappears_blockage_stays():
    state = play(position(EMPTY), {"action": "curtain", "line": "h2"}, {"action": "checkpoint", "line": "h2"})
    later = play(state, place(1), {"action": "wall", "around": 25}, place(2))
    refused(later, 1, {"action": "checkpoint", "around": 25}, "checkpoint-used")
    assert state.checkpoints[0].ends_at == 19
    for square in range(1, 8):  # moves 13..19
        state = V.apply(state, state.to_move[0], place(square))
    assert state.checkpoints == ()
    gone = [e for e in state.history if e.kind == "checkpoint-gone"]
    assert gone and gone[0].ply == 19 and gone[0].redraw.startswith("7.01(e)")
    assert [b.name for b in state.blockages] == ["h2"]  # (c) it still has to be snipped


def test_4_06_a_checkpoint_on_an_unprotected_blockage_gives_two_full_turns_from_now():
    state = position(EMPTY, blockages=(("curtain", "h2", 1, 1),))  # protection ended long ago
    after = V.apply(state, 0, {"action": "checkpoint", "line": "h2"})  # move 11
    assert after.blockages[0].protected_until == 15 and after.checkpoints[0].ends_at == 15


# -- Rule 5.1.00: supers in Version 1.0 ----------------------------------------------------------------------


def test_5_1_01_a_no_super_on_the_first_turn():
    refused(
        V.new_game({"version": "1.0"}, seed=1), 0, {"action": "super", "square": 1}, "first-move-is-a-symbol"
    )


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_5_x_01_b_c_d_a_super_has_a_2x2_range_gooshes_opponents_and_spares_friends(version):
    picture = "O X O . .\nO O . . .\n" + ". . . . .\n" * 3
    after = V.apply(position(picture, version=version), 0, {"action": "super", "square": 1})
    assert after.cells[0] is None and after.cells[5] is None and after.cells[6] is None  # gooshed
    assert after.cells[1] == "X"  # friendly, untouched
    assert after.cells[2] == "O"  # outside the 2x2 range
    refused(position(picture, version=version), 0, {"action": "super", "square": 5}, "super-off-board")
    assert after.history[-1].redraw.startswith("7.01(a)")


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_5_x_01_e_one_super_per_game(version):
    state = play(position(EMPTY, version=version), {"action": "super", "square": 19}, place(1))
    refused(state, 0, {"action": "super", "square": 16}, "super-used")


@pytest.mark.parametrize("version", ["1.0", "2.0"])
def test_5_x_01_f_supers_act_through_blockages(version):
    picture = ". . . . .\n. . . . .\n. . O O .\n. . O O .\n. . . . ."
    state = position(
        picture,
        version=version,
        blockages=(("curtain", "h3", 1, 9), ("curtain", "v3", 1, 9)),
        keep_centre_wall=False,
    )
    after = V.apply(state, 0, {"action": "super", "square": 13})
    assert all(after.cells[s - 1] != "O" for s in (13, 14, 18, 19))


# -- Rule 5.2.00: supers in Version 2.0 --------------------------------------------------------------------------


def test_5_2_01_a_g_supers_place_on_squares_that_were_empty_not_on_gooshed_ones():
    after = V.apply(position("O . . . .\n" + ". . . . .\n" * 4), 0, {"action": "super", "square": 1})
    assert after.cells[0] is None and after.cells[1] == after.cells[5] == after.cells[6] == "X"


def test_5_2_02_a_super_may_not_win_when_other_defences_exist():
    picture = "X X . . .\n" + ". . . . .\n" * 2 + "O O . . .\n. . . . ."
    state = position(picture)
    refused(state, 0, {"action": "super", "square": 3}, "super-would-win")
    # This super would also block O's only threat (18-19-20), but placing on 18 does that too.
    picture = ". . . . .\n. . . . .\n. X X . .\n. . . O O\n. . . . ."
    state = position(picture)
    assert geo.threats(state.cells, state.blocked, "O") == [(18, (18, 19, 20))]
    refused(state, 0, {"action": "super", "square": 13}, "super-would-win")


def test_5_2_02_exception_a_winning_super_that_alone_stops_the_opponent_is_allowed():
    # O threatens 7, 8, 14, 15 and 18; X has used curtain, wall and checkpoint, so no
    # placement, destruction or other super stops them all. The super on 7, 8, 12, 13 fills
    # 7 and 8 (directly blocking 3-7-11 and 8-9-10) and completes X's 1-7-13: allowed.
    picture = "X . O . X\n. . . O O\nO . . . .\n. . . O O\n. O . . ."
    state = position(picture, spent=(("checkpoint", "curtain", "wall"), ()), keep_centre_wall=False)
    assert {square for square, _ in geo.threats(state.cells, state.blocked, "O")} == {7, 8, 14, 15, 18}
    assert {"action": "super", "square": 7} in V.legal_moves(state, 0)
    after = V.apply(state, 0, {"action": "super", "square": 7})
    assert V.outcome(after).winner == 0 and after.winning_line == (1, 7, 13)


def test_5_2_02_a_winning_super_is_refused_while_another_super_can_defend():
    # O threatens 8 (8-9-10) and 15 (3-9-15): no placement stops both, but the super on
    # 9, 10, 14, 15 gooshes 9 and 10 and stops both, so the winning super on 7 is refused.
    picture = "X . O . X\n. . . O O\n. . . . .\n. . . . .\n. . . . ."
    state = position(picture, spent=(("checkpoint", "curtain", "wall"), ()), keep_centre_wall=False)
    assert {square for square, _ in geo.threats(state.cells, state.blocked, "O")} == {8, 15}
    refused(state, 0, {"action": "super", "square": 7}, "super-would-win")
    assert {"action": "super", "square": 9} in V.legal_moves(state, 0)


# -- Rule 6.00: errors --------------------------------------------------------------------------------------------


def test_6_01_a_b_a_bwah_places_the_opponents_symbol_and_stands_once_made():
    state = position(EMPTY)
    move = {"action": "place", "square": 5, "symbol": "O"}
    assert move in V.legal_moves(state, 0)
    after = V.apply(state, 0, move)
    assert after.cells[4] == "O" and after.to_move == (1,) and after.history[-1].kind == "bwah"
    refused(position(EMPTY, bwahs=False), 0, move, "bwah-not-allowed")


def test_6_01_b_a_bwah_can_be_rectified_before_the_pen_is_lifted():
    state = position(EMPTY, confirm_moves=True)
    pending = V.apply(state, 0, {"action": "place", "square": 5, "symbol": "O"})
    assert pending.to_move == (0,) and pending.cells == state.cells
    assert V.legal_moves(pending, 0) == [{"action": "confirm"}, {"action": "take-back"}]
    assert V.view(pending, 1)["pending"]["move"]["symbol"] == "O"
    refused(pending, 0, place(6), "move-pending")
    back = V.apply(pending, 0, {"action": "take-back"})
    assert back.cells == state.cells and back.pending is None and back.to_move == (0,)
    assert back.history[-1].kind == "take-back"
    fixed = play(back, place(5), {"action": "confirm"})
    assert fixed.cells[4] == "X" and fixed.to_move == (1,)
    refused(fixed, 1, {"action": "confirm"}, "nothing-pending")


def test_6_01_b_decision_take_backs_are_limited_per_game():
    state = position(EMPTY, confirm_moves=True, take_backs=1)
    state = play(state, place(1), {"action": "take-back"}, place(1))
    refused(state, 0, {"action": "take-back"}, "no-take-backs-left")
    assert V.legal_moves(state, 0) == [{"action": "confirm"}]


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ({"action": "place", "square": 1}, "square-taken"),
        ({"action": "place", "square": 26}, "out-of-range"),
        ({"action": "place", "square": "c3"}, "malformed-move"),
        ({"action": "jump"}, "malformed-move"),
        ({"action": "wall", "around": 3, "line": "h1"}, "malformed-move"),
        ({"action": "snip", "line": "h1"}, "no-such-blockage"),
        ({"action": "confirm"}, "nothing-pending"),
        ("place 3", "malformed-move"),
    ],
)
def test_6_01_c_a_sucka_is_refused_with_a_clear_message_and_changes_nothing(move, code):
    state = position("X . . . .\n" + ". . . . .\n" * 4)
    err = refused(state, 0, move, code)
    assert err.message and err.message[0].isupper()


def test_6_01_c_moves_out_of_turn_are_suckas():
    state = position(EMPTY)
    refused(state, 1, place(3), "not-your-turn")


# -- Rule 7.00: re-drawing ------------------------------------------------------------------------------------------


def test_7_01_the_history_records_every_redraw_with_its_reason():
    state = position(
        "O . . . .\n" + ". . . . .\n" * 4,
        blockages=(("curtain", "h4", 1, 1), ("wall", "around 7", 1, 1)),
        keep_centre_wall=False,
    )
    state = play(
        state,
        {"action": "super", "square": 1},
        {"action": "snip", "line": "h4"},
        {"action": "tear-down", "around": 7},
    )
    reasons = [e.redraw[:7] for e in state.history if e.redraw]
    assert reasons == ["7.01(a)", "7.01(c)", "7.01(d)"]
    assert V.view(state, None)["history"][-1]["redraw"].startswith("7.01(d)")
    # (b) a sucka is refused before it reaches the board: nothing to re-draw, nothing recorded.
    with pytest.raises(RuleError):
        V.apply(state, 1, place(2))
    assert len(state.history) == 3


def test_7_02_a_redraw_keeps_every_other_blockage_checkpoint_and_symbol():
    state = position(
        "X . . . O\n" + ". . . . .\n" * 4,
        blockages=(("curtain", "h4", 1, 1), ("wall", "around 7", 1, 9)),
        keep_centre_wall=False,
    )
    state = play(state, {"action": "checkpoint", "around": 7})
    after = V.apply(state, 1, {"action": "snip", "line": "h4"})
    assert after.cells == state.cells and after.checkpoints == state.checkpoints
    assert [b.name for b in after.blockages] == ["around 7"]


# -- decisions: full turns, the end of a game, notation, views -----------------------------------------------------


def test_decision_a_game_with_no_legal_move_left_is_drawn():
    # A full board without three in a row, every special used, bwahs off: nobody can move.
    picture = "X X O O X\nO O X X O\nX X O O X\nO O X X O\nX X O O ."
    every = ("checkpoint", "curtain", "super", "wall")
    state = position(picture, spent=(every, every), keep_centre_wall=False, bwahs=False)
    after = V.apply(state, 0, place(25))
    assert V.outcome(after).result == "draw" and after.to_move == ()
    assert V.outcome(after).winner is None
    # With a special left the game goes on: the full board alone does not end it.
    state = position(
        picture, spent=(every, ("checkpoint", "curtain", "super")), keep_centre_wall=False, bwahs=False
    )
    after = V.apply(state, 0, place(25))
    assert V.outcome(after) is None and V.legal_moves(after, 1)


def test_describe_move_names_the_move_in_words():
    assert (
        V.describe_move({"action": "wall", "segments": ["9|14", "8|13"]})
        == "Berlin Wall separating squares 8, 9 from 13, 14"
    )
    assert V.describe_move({"action": "super", "square": 7}) == "super on squares 7, 8, 12, 13"
    assert V.describe_move({"action": "place", "square": 13, "symbol": "O"}) == "O on square 13"
    assert V.describe_move({"action": "curtain", "line": "h2"}) == "Iron Curtain on the line between rows 2 and 3"
    assert V.describe_move(["junk"]) == "['junk']"


def test_every_listed_move_is_accepted_and_canonical():
    state = position("X O . . .\n" + ". . . . .\n" * 4, version="1.0", blockages=(("curtain", "h4", 1, 1),))
    moves = V.legal_moves(state, 0)
    for move in moves:
        V.apply(state, 0, move)
    assert len(moves) == len({json.dumps(m, sort_keys=True) for m in moves})
    assert move_of(("place", 3, None)) == {"action": "place", "square": 3}


def test_views_are_the_same_for_every_viewer_nothing_is_secret():
    state = play(V.new_game({"confirm_moves": True}, seed=1), place(1))
    assert V.view(state, 0) == V.view(state, 1) == V.view(state, None)
    view = V.view(state, None)
    assert view["to_move"] == [0] and view["outcome"] is None and len(view["specials_left"]) == 2
