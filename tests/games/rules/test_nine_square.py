"""Nine-Square: one test (or more) per clause of the rules text, decisions, properties, AI.

Rules text: shared/seeds/004_f624c1ee6d64bcb4.txt; decisions: docs/rules/nine-square.md.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import RuleError, chance, get_variant
from games.rules.ai import choose_move
from games.rules.variants.nine_square import ai
from tests.games.rules.ai_clock import stepping_clock

V = get_variant("nine-square")

#: A full board on which nobody has three in a row (X O X / X O O / O X X).
DEAD_BOARD = "XOXXOOOXX"
EMPTY_BOARD = "........."
GRID_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def position(boards, *, mover="X", roll=1, x_seat=0, seed="test"):
    """A running state built from 9 board strings ("X", "O", "." for empty)."""
    mover_seat = x_seat if mover == "X" else 1 - x_seat
    return V.load(
        {
            "seed": seed,
            "draws": 10,
            "x_player": "player-one" if x_seat == 0 else "player-two",
            "setup_rolls": [],
            "x_seat": x_seat,
            "board": list(boards),
            "roll": roll,
            "to_move": [mover_seat],
            "turn": 5,
            "last_turn": None,
            "end_reason": None,
        }
    )


def boards_with(changes: dict[int, str], fill: str = EMPTY_BOARD) -> list[str]:
    """Nine boards, all ``fill`` except those in ``changes`` (board number 1..9 -> string)."""
    return [changes.get(b, fill) for b in range(1, 10)]


def recount(board_view, letter):
    """Points of ``letter`` counted independently from a view's board (lines + board-line bonuses)."""
    lines = 0
    won = set()
    for b, board in enumerate(board_view):
        for line in GRID_LINES:
            if all(board[i] == letter for i in line):
                lines += 1
                won.add(b)
    bonus = 3 * sum(1 for line in GRID_LINES if all(b in won for b in line))
    return lines + bonus


def play(seed, players=None, options=None):
    """A whole game; ``players`` maps seat -> function(state, seat, rng) (random by default)."""
    rng = random.Random(seed)
    state = V.new_game(options, seed=seed)
    states = [state]
    while state.to_move:
        seat = state.to_move[0]
        chooser = (players or {}).get(seat) or V.random_move
        state = V.apply(state, seat, chooser(state, seat, rng))
        states.append(state)
    return states


def empties(state):
    return [
        (b + 1, s + 1)
        for b, board in enumerate(V.view(state, None)["board"])
        for s, c in enumerate(board)
        if c is None
    ]


# -- "A game for two players" / "Materials: ... one die" ----------------------------------


def test_a_game_for_two_players():
    state = V.new_game(None, seed=1)
    view = V.view(state, None)
    assert sorted(view["letters"]) == ["O", "X"]
    for later in play(1):
        assert set(later.to_move) <= {0, 1} and len(later.to_move) <= 1


def test_one_die_every_roll_is_from_1_to_6():
    seen = Counter()
    for seed in range(30):
        for state in play(seed):
            view = V.view(state, None)
            for pair in view["setup_rolls"]:
                seen.update(pair)
            if view["roll"] is not None:
                seen[view["roll"]] += 1
    assert set(seen) == {1, 2, 3, 4, 5, 6}


# -- Setup ---------------------------------------------------------------------------------


def test_setup_create_a_grid_of_3x3_boards():
    view = V.view(V.new_game(None, seed=2), None)
    assert len(view["board"]) == 9
    assert all(board == [None] * 9 for board in view["board"])


@pytest.mark.parametrize("seed", range(12))
def test_setup_highest_roll_goes_first_and_is_x(seed):
    state = V.new_game(None, seed=seed)
    view = V.view(state, None)
    first, second = view["setup_rolls"][-1]
    x_seat = 0 if first > second else 1
    assert view["x_seat"] == x_seat
    assert view["letters"][x_seat] == "X" and view["letters"][1 - x_seat] == "O"  # lowest is O
    assert state.to_move == (x_seat,)  # X goes first
    # The rolls are the seed's first draws, so anyone can check them once the seed is public.
    seed_text = chance.normalise_seed(seed)
    assert view["setup_rolls"][0] == [chance.roll_die(seed_text, 0), chance.roll_die(seed_text, 1)]


def test_setup_decision_tied_rolls_roll_again():
    tied = next(s for s in range(500) if chance.roll_die(str(s), 0) == chance.roll_die(str(s), 1))
    rolls = V.view(V.new_game(None, seed=tied), None)["setup_rolls"]
    assert len(rolls) >= 2
    assert all(a == b for a, b in rolls[:-1])
    assert rolls[-1][0] != rolls[-1][1]


@pytest.mark.parametrize(("choice", "x_seat"), [("player-one", 0), ("player-two", 1)])
def test_setup_decision_house_rule_fixes_x(choice, x_seat):
    state = V.new_game({"x_player": choice}, seed=5)
    view = V.view(state, None)
    assert view["x_seat"] == x_seat and view["setup_rolls"] == []
    assert state.to_move == (x_seat,)


def test_options_refused_with_bad_options():
    for bad in ({"x_player": "coin"}, {"x_player": 1}, {"first": "X"}):
        with pytest.raises(RuleError) as err:
            V.new_game(bad, seed=1)
        assert err.value.code == "bad-options"


# -- "At the beginning of your turn, roll the die" -------------------------------------------


def test_turn_roll_is_the_next_draw_of_the_seed_at_each_turn_start():
    state = V.new_game(None, seed=9)
    seed_text = chance.normalise_seed(9)
    used = 2 * len(V.view(state, None)["setup_rolls"])
    assert V.view(state, None)["roll"] == chance.roll_die(seed_text, used)
    rng = random.Random(0)
    for turn in range(1, 6):
        state = V.apply(state, state.to_move[0], V.random_move(state, state.to_move[0], rng))
        assert V.view(state, None)["roll"] == chance.roll_die(seed_text, used + turn)


# -- "You cannot place fewer marks ... and you cannot place more marks" ----------------------


def test_exactly_the_number_on_the_die_fewer_or_more_refused():
    state = position(boards_with({}), roll=3)
    seat = state.to_move[0]
    for marks in ([[1, 1], [1, 2]], [[1, 1], [1, 2], [1, 3], [1, 4]], []):
        with pytest.raises(RuleError) as err:
            V.apply(state, seat, {"marks": marks})
        assert err.value.code == "wrong-number-of-marks"
    after = V.apply(state, seat, {"marks": [[1, 1], [1, 2], [1, 3]]})
    assert sum(c is not None for b in V.view(after, None)["board"] for c in b) == 3


def test_decision_fewer_empty_squares_than_the_die_means_fill_them_all():
    boards = boards_with({9: "XOXXO.OX."}, fill=DEAD_BOARD)
    state = position(boards, mover="X", roll=5)
    assert V.view(state, None)["marks_to_place"] == 2
    with pytest.raises(RuleError) as err:
        V.apply(state, 0, {"marks": [[9, 6]]})
    assert err.value.code == "wrong-number-of-marks"
    assert V.legal_moves(state, 0) == [{"marks": [[9, 6], [9, 9]]}]
    final = V.apply(state, 0, {"marks": [[9, 9], [9, 6]]})
    assert final.to_move == () and V.outcome(final).reason == "grid-full"


# -- "Players can place marks anywhere on the grid ..." -------------------------------------


def test_marks_anywhere_on_multiple_boards_in_any_order():
    state = position(boards_with({5: "XXXOO...."}), roll=4)
    after = V.apply(state, 0, {"marks": [[9, 9], [1, 1], [5, 9], [3, 5]]})
    view = V.view(after, None)
    assert view["board"][8][8] == "X" and view["board"][0][0] == "X"
    assert view["board"][4][8] == "X" and view["board"][2][4] == "X"


def test_marks_only_on_empty_squares_and_each_once():
    state = position(boards_with({5: "XXXOO...."}), roll=2)
    with pytest.raises(RuleError) as err:
        V.apply(state, 0, {"marks": [[5, 4], [1, 1]]})
    assert err.value.code == "square-taken"
    with pytest.raises(RuleError) as err:
        V.apply(state, 0, {"marks": [[1, 1], [1, 1]]})
    assert err.value.code == "repeated-square"


# -- "After all a player's marks have been made ... the other player's turn" ------------------


def test_turn_passes_to_the_other_player_after_the_marks():
    state = V.new_game(None, seed=4)
    first = state.to_move[0]
    after = V.apply(state, first, V.random_move(state, first, random.Random(1)))
    assert after.to_move == (1 - first,)
    with pytest.raises(RuleError) as err:
        V.apply(after, first, V.random_move(after, 1 - first, random.Random(1)))
    assert err.value.code == "not-your-turn"
    assert V.view(after, None)["last_turn"]["seat"] == first


# -- Points ------------------------------------------------------------------------------------


@pytest.mark.parametrize("line", GRID_LINES)
def test_three_in_a_row_on_a_board_is_one_point(line):
    board = "".join("X" if i in line else "." for i in range(9))
    state = position(boards_with({4: board}))
    assert V.view(state, None)["scores"] == [1, 0]


def test_three_boards_in_a_row_add_three_points_rows_columns_diagonals():
    top_row = "XXX......"
    for boards in ((1, 2, 3), (4, 5, 6), (1, 4, 7), (3, 6, 9), (1, 5, 9), (3, 5, 7)):
        state = position(boards_with(dict.fromkeys(boards, top_row)))
        assert V.view(state, None)["scores"] == [3 + 3, 0], boards


def test_three_boards_not_in_a_row_add_nothing():
    state = position(boards_with(dict.fromkeys((1, 2, 6), "XXX......")))
    assert V.view(state, None)["scores"] == [3, 0]


def test_decision_board_line_needs_any_line_on_each_board_not_the_same_one():
    state = position(boards_with({1: "XXX......", 5: "X..X..X..", 9: "X...X...X"}))
    assert V.view(state, None)["points"] == {"lines": [3, 0], "bonus": [3, 0]}


def test_decision_both_players_can_score_the_same_board_line():
    both = "XXX...OOO"
    state = position(boards_with(dict.fromkeys((7, 8, 9), both)))
    assert V.view(state, None)["scores"] == [6, 6]


def test_decision_each_line_of_boards_counts_separately():
    # Boards 1, 2, 3 and 5, 9 hold lines: rows 1-2-3 and diagonal 1-5-9 both pay.
    state = position(boards_with(dict.fromkeys((1, 2, 3, 5, 9), "XXX......")))
    assert V.view(state, None)["points"]["bonus"] == [6, 0]


def test_completely_filling_a_board_is_worth_8_points_and_no_extra():
    state = position(boards_with({2: "OOOOOOOOO"}))
    assert V.view(state, None)["scores"] == [0, 8]


def test_scores_belong_to_seats_not_letters():
    state = position(boards_with({2: "OOOOOOOOO"}), x_seat=1)
    assert V.view(state, None)["scores"] == [8, 0]


# -- "After the board has been completely filled, the player with the highest ... wins" -----

WIN_BOARD_9 = "XXOOO.XX."  # X to fill squares 6 and 9: row 3 becomes X X X


def test_grid_filled_highest_points_wins():
    state = position(boards_with({9: WIN_BOARD_9}, fill=DEAD_BOARD), roll=2)
    final = V.apply(state, 0, {"marks": [[9, 6], [9, 9]]})
    outcome = V.outcome(final)
    assert final.to_move == ()
    assert (outcome.result, outcome.winner, outcome.scores, outcome.reason) == ("win", 0, (1, 0), "grid-full")


def test_decision_equal_points_on_a_full_grid_is_a_draw():
    o_line = "OOOXXOXOX"  # O holds the top row, nothing else
    boards = boards_with({8: o_line, 9: WIN_BOARD_9}, fill=DEAD_BOARD)
    final = V.apply(position(boards, roll=6), 0, {"marks": [[9, 6], [9, 9]]})
    outcome = V.outcome(final)
    assert (outcome.result, outcome.winner, outcome.scores) == ("draw", None, (1, 1))


def test_game_runs_until_the_end_and_the_winner_has_more_points():
    for seed in range(10):
        states = play(seed)
        assert all(V.outcome(s) is None for s in states[:-1])
        outcome = V.outcome(states[-1])
        if outcome.result == "win":
            assert outcome.scores[outcome.winner] > outcome.scores[1 - outcome.winner]
        else:
            assert outcome.scores[0] == outcome.scores[1]


# -- "Players may also declare the game finished ... if it is impossible ..." ----------------


def test_decision_game_ends_by_itself_once_no_line_can_change():
    # Board 9: X O X / X O . / O X . -- only column 3 (X . .) is still open.
    state = position(boards_with({9: "XOXXO.OX."}, fill=DEAD_BOARD), mover="O", roll=1)
    final = V.apply(state, 1, {"marks": [[9, 6]]})
    assert final.to_move == ()
    assert V.view(final, None)["board"][8][8] is None  # a square is left, but it cannot score
    assert V.outcome(final).reason == "nothing-left-to-score"


def test_game_goes_on_while_a_line_can_still_be_completed():
    state = position(boards_with({9: "XOXXO.OX."}, fill=DEAD_BOARD), mover="X", roll=1)
    after = V.apply(state, 0, {"marks": [[9, 6]]})  # column 3 is now X X . : open
    assert after.to_move == (1,) and V.outcome(after) is None


# -- Move notation, errors, legal_moves, random_move ------------------------------------------


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ("1/1", "malformed-move"),
        ({"marks": "1/1"}, "malformed-move"),
        ({"marks": [[1, 1]], "extra": 1}, "malformed-move"),
        ({"marks": [[1]]}, "malformed-move"),
        ({"marks": [1]}, "malformed-move"),
        ({"marks": [[1, "1"]]}, "malformed-move"),
        ({"marks": [[True, 1]]}, "malformed-move"),
        ({"marks": [[0, 1]]}, "out-of-range"),
        ({"marks": [[1, 10]]}, "out-of-range"),
    ],
)
def test_malformed_moves_are_refused_with_stable_codes(move, code):
    state = position(boards_with({}), roll=1)
    with pytest.raises(RuleError) as err:
        V.apply(state, 0, move)
    assert err.value.code == code and err.value.message


def test_moves_after_the_end_and_bad_seats_are_refused():
    final = play(3)[-1]
    with pytest.raises(RuleError) as err:
        V.apply(final, 0, {"marks": [[1, 1]]})
    assert err.value.code == "game-over"
    with pytest.raises(RuleError) as err:
        V.apply(V.new_game(None, seed=3), 2, {"marks": [[1, 1]]})
    assert err.value.code == "bad-seat"


def test_legal_moves_lists_every_move_when_few():
    boards = boards_with({9: "X...O...."}, fill=DEAD_BOARD)  # 7 empty squares
    state = position(boards, roll=3)
    moves = V.legal_moves(state, 0)
    assert len(moves) == math.comb(7, 3) == len({json.dumps(m) for m in moves})
    for move in moves:
        V.apply(state, 0, move)
    assert V.legal_moves(state, 1) == []


@pytest.mark.parametrize("roll", range(1, 7))
def test_legal_moves_compact_form_when_huge(roll):
    state = position(boards_with({}), roll=roll)
    moves = V.legal_moves(state, 0)
    count = math.comb(81, roll)
    if count <= 5000:  # rolls 1 and 2: every move listed
        assert len(moves) == count == len({json.dumps(m) for m in moves})
    else:
        every_square = [[b, s] for b in range(1, 10) for s in range(1, 10)]
        assert moves == [{"choose": roll, "from": every_square, "count": count}]
        with pytest.raises(RuleError) as err:
            V.apply(state, 0, moves[0])
        assert err.value.code == "malformed-move"


def test_random_move_is_uniform_over_legal_moves():
    boards = boards_with({9: "XO.XO.OX."}, fill=DEAD_BOARD)  # 3 empty squares, roll 2: 3 moves
    state = position(boards, roll=2)
    rng = random.Random(5)
    counts = Counter(json.dumps(V.random_move(state, 0, rng)) for _ in range(3000))
    assert set(counts) == {json.dumps(m) for m in V.legal_moves(state, 0)}
    assert all(850 < n < 1150 for n in counts.values())


def test_describe_move_notation():
    assert V.describe_move({"marks": [[5, 5], [1, 9]]}) == "5/5 1/9"


def test_views_are_public_the_same_for_everyone():
    for state in play(11)[::5]:
        views = [V.view(state, viewer) for viewer in (0, 1, None)]
        for view in views:
            view.pop("viewer")
            json.dumps(view)
        assert views[0] == views[1] == views[2]
    with pytest.raises(RuleError):
        V.view(V.new_game(None, seed=1), 5)


def test_load_refuses_damaged_data():
    data = V.dump(V.new_game(None, seed=1))
    damages = (
        {"board": ["X"]},
        {"x_seat": 3},
        {"setup_rolls": "6-1"},
        {"end_reason": "bored"},
        {"roll": 7},
        {"seed": None, "turn": "x"},
    )
    for damage in damages:
        with pytest.raises(RuleError) as err:
            V.load({**data, **damage})
        assert err.value.code == "bad-state"


# -- Properties ---------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), x_player=st.sampled_from(["roll", "player-one", "player-two"]))
def test_property_turns_place_the_die_scores_grow_and_end_is_exact(seed, x_player):
    states = play(seed, options={"x_player": x_player})
    previous = None
    for before, after in itertools.pairwise(states):
        view_before, view_after = V.view(before, None), V.view(after, None)
        placed = sum(
            a != b
            for board_a, board_b in zip(view_before["board"], view_after["board"], strict=True)
            for a, b in zip(board_a, board_b, strict=True)
        )
        assert placed == min(view_before["roll"], len(empties(before)))
        for seat in (0, 1):
            letter = view_after["letters"][seat]
            assert view_after["scores"][seat] == recount(view_after["board"], letter)
            assert view_after["scores"][seat] >= view_before["scores"][seat]
        previous = view_after
    # It ends exactly when the grid is full or no line holding one letter has an empty square.
    open_lines = [
        line for board in previous["board"] for line in GRID_LINES
        if None in [board[i] for i in line] and len({board[i] for i in line} - {None}) < 2
    ]  # fmt: skip
    for state in states[:-1]:
        assert state.to_move
    assert open_lines == []
    assert V.dump(V.load(json.loads(json.dumps(V.dump(states[-1]))))) == V.dump(states[-1])


# -- AI ----------------------------------------------------------------------------------------


def strong_cheap(state, seat, rng):
    return ai.strong_move(V, state, seat, rng, time_limit=0.02, candidates=1)


def test_ai_strong_beats_random_in_95_percent_of_200_games():
    wins = 0
    margin = 0
    for game in range(200):
        strong_seat = game % 2
        final = play(10_000 + game, players={strong_seat: strong_cheap})[-1]
        outcome = V.outcome(final)
        wins += outcome.winner == strong_seat
        margin += outcome.scores[strong_seat] - outcome.scores[1 - strong_seat]
    assert wins >= 190, (wins, margin / 200)


def test_ai_casual_mostly_beats_random():
    wins = sum(
        V.outcome(
            play(20_000 + g, players={g % 2: lambda s, seat, r: ai.casual_move(V, s, seat, r)})[-1]
        ).winner
        == g % 2
        for g in range(20)
    )
    assert wins >= 16


def test_ai_strong_completes_its_own_line():
    # X holds two of the top row on board 5; one mark, no threat of O's anywhere.
    state = position(boards_with({5: "XX.O....."}), roll=1)
    assert ai.strong_move(V, state, 0, random.Random(1)) == {"marks": [[5, 3]]}


def test_ai_strong_blocks_the_opponents_line():
    # O threatens the diagonal of board 2; X has no line to finish with one mark.
    state = position(boards_with({2: "O...O..X."}), roll=1)
    assert ai.strong_move(V, state, 0, random.Random(1)) == {"marks": [[2, 9]]}


def test_ai_strong_answers_within_a_second_at_its_default_budget(monkeypatch):
    # By the AI's own clock: the real latencies are bench/engine.py's.
    clock = stepping_clock(monkeypatch, ai)
    rng = random.Random(2)
    state = V.new_game({"x_player": "player-one"}, seed=42)
    for _ in range(6):
        if not state.to_move:
            break
        seat = state.to_move[0]
        started, readings = clock.now, clock.readings
        move = choose_move(V, state, seat, "strong", rng)
        assert clock.now - started < 1.0 and clock.readings > readings
        state = V.apply(state, seat, move)
