"""Tic Tac Two AI: strength against random play, speed, and the tactics it must see."""

from __future__ import annotations

import random
import time

from games.rules import get_variant
from games.rules.ai import choose_move
from games.rules.variants.tic_tac_two import ai
from tests.games.rules.test_tic_tac_two import O, X, at, play, pos, winner

V = get_variant("tic-tac-two")
#: A cheap budget for the 200-game test; play uses ai.DEFAULT_BUDGET.
CHEAP = ai.Budget(seconds=0.2, breadth=3, action_sample=12)


def play_out(state, players, rng):
    """Play to the end; ``players[seat]`` is "random" or a Budget for the strong AI."""
    while state.to_move:
        seat = state.to_move[0]
        player = players[seat]
        if player == "random":
            move = V.random_move(state, seat, rng)
        else:
            move = ai.strong_move(V, state, seat, rng, player)
        state = V.apply(state, seat, move)
    return state


def test_strong_beats_random_in_at_least_95_percent_of_200_games():
    wins = 0
    for game in range(200):
        rng = random.Random(game)
        strong = game % 2  # both seats, so both letters and both draft orders
        options = {"meta": game % 4 >= 2, "void": game % 3 == 0}
        players = ["random", "random"]
        players[strong] = CHEAP
        final = play_out(V.new_game(options, seed=game), players, rng)
        wins += V.outcome(final).winner == strong
    assert wins >= 190, f"strong won {wins} of 200"


def test_strong_moves_come_within_one_second_with_the_default_budget():
    slowest = 0.0
    for game in range(2):
        rng = random.Random(100 + game)
        state = V.new_game({"meta": bool(game), "void": not game}, seed=game)
        while state.to_move:
            seat = state.to_move[0]
            started = time.perf_counter()
            move = ai.strong_move(V, state, seat, rng)
            slowest = max(slowest, time.perf_counter() - started)
            state = V.apply(state, seat, move)
    assert slowest < 1.0, f"slowest move took {slowest:.2f}s"


def strong_turn(state, seat, rng=None):
    """Let the strong AI play its whole turn (action and/or topples, then the letter)."""
    rng = rng or random.Random(0)
    while state.to_move == (seat,):
        state = V.apply(state, seat, ai.strong_move(V, state, seat, rng))
    return state


def test_strong_takes_a_four_in_a_row_at_once():
    state = pos("X X X .  O O O .  . . . .  . . . .")
    assert winner(strong_turn(state, X)) == X


def test_strong_wins_with_double_when_two_letters_are_missing():
    state = pos(
        "X X . .  O . . .  O . . .  . . . .",
        held=(("double", "wall", "intersect"), ("dibs", "swap", "shift")),
    )
    assert winner(strong_turn(state, X)) == X


def test_strong_wins_by_dibs_overwriting_a_blocker():
    state = pos(
        "X X X O  O . . .  O . . .  . . . .",
        held=(("dibs", "wall", "intersect"), ("double", "swap", "shift")),
    )
    state = strong_turn(state, X)
    assert winner(state) == X


def can_win_this_turn(state, seat):
    """Brute force over the public API: can ``seat`` connect four this turn?"""
    frontier = [state]
    while frontier:
        nxt = []
        for current in frontier:
            for move in V.legal_moves(current, seat):
                after = V.apply(current, seat, move)
                if V.outcome(after) is not None:
                    if V.outcome(after).winner == seat:
                        return True
                elif after.to_move == (seat,):
                    nxt.append(after)
        frontier = nxt
    return False


def test_strong_blocks_a_four_the_opponent_would_write():
    state = pos(". . . .  O O O .  X . . .  . . . .", spent=((), ("dibs", "intersect", "wall")))
    assert can_win_this_turn(
        pos(". . . .  O O O .  X . . .  . . . .", to_move=O, spent=((), ("dibs", "intersect", "wall"))), O
    )
    state = strong_turn(state, X)
    assert V.outcome(state) is None and not can_win_this_turn(state, O)


def test_strong_stops_a_four_the_opponent_could_take_with_its_dibs_space():
    # O's unused Dibs Space could overwrite the X on square 4 and complete row 1.
    grid = "O O O X  X . . .  . . . .  . . X ."
    held = (("wall", "swap", "intersect"), ("dibs", "double", "shift"))
    assert can_win_this_turn(pos(grid, held=held, to_move=O), O)
    state = strong_turn(pos(grid, held=held), X)
    assert V.outcome(state) is None and not can_win_this_turn(state, O)


def test_strong_plays_the_draft_and_the_voids_legally():
    state = V.new_game({"void": True}, seed=4)
    rng = random.Random(4)
    while V.view(state, None)["phase"] in ("draft", "void"):
        seat = state.to_move[0]
        move = ai.strong_move(V, state, seat, rng)
        assert move in V.legal_moves(state, seat)
        state = V.apply(state, seat, move)
    assert V.view(state, None)["actions"][O]["held"][0] == ai.DRAFT_ORDER[0]


def test_casual_plays_legally_and_usually_beats_random():
    wins = 0
    for game in range(30):
        rng = random.Random(game)
        state = V.new_game({"meta": game % 2 == 1}, seed=game)
        casual = game % 2
        while state.to_move:
            seat = state.to_move[0]
            level = "casual" if seat == casual else "random"
            move = choose_move(V, state, seat, level, rng)
            assert move in V.legal_moves(state, seat)
            state = V.apply(state, seat, move)
        wins += V.outcome(state).winner == casual
    assert wins >= 24, f"casual won {wins} of 30"


def test_casual_takes_a_win_it_sees():
    state = pos("X X X .  O O O .  . . . .  . . . .")
    move = ai.casual_move(V, state, X, random.Random(1))
    assert move == {"type": "write", "cell": 4}
    assert at(play(state, X, move), 4) == "X"
