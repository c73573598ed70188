"""The classic Tic Tac Toe AI: perfect play checked exhaustively, casual play, strength figures.

The oracle below solves the game again, independently of games.rules.variants.classic.ai, through
the public contract only (legal_moves / apply / outcome / view).
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from games.rules import get_variant
from games.rules.ai import choose_move
from games.rules.variants.classic import ai as classic_ai

classic = get_variant("classic")

#: Every house-rule combination; they change which seat moves first and with which letter.
HOUSE_RULES = [
    {"symbols": ["X", "O"], "first": "X"},
    {"symbols": ["X", "O"], "first": "O"},
    {"symbols": ["O", "X"], "first": "X"},
    {"symbols": ["O", "X"], "first": "O"},
]


def key(state):
    return (tuple(classic.view(state, None)["board"]), state.to_move)


class Oracle:
    """Perfect-play values through the public contract.

    value(state) is for the seat to move: 0 a draw; a win is positive, a loss negative,
    and its size is the number of empty squares after the winning mark plus one, so a
    sooner win is bigger and a sooner loss smaller.
    """

    def __init__(self) -> None:
        self.memo: dict = {}

    def value(self, state) -> int:
        k = key(state)
        if k not in self.memo:
            seat = state.to_move[0]
            self.memo[k] = max(self.move_value(state, seat, m) for m in classic.legal_moves(state, seat))
        return self.memo[k]

    def move_value(self, state, seat, move) -> int:
        child = classic.apply(state, seat, move)
        outcome = classic.outcome(child)
        if outcome is None:
            return -self.value(child)
        if outcome.winner is None:
            return 0
        assert outcome.winner == seat  # only the mover can complete a line
        return classic.view(child, None)["board"].count(None) + 1


def reachable(options):
    """Every reachable running position, once each."""
    seen = {}
    stack = [classic.new_game(options, seed=1)]
    while stack:
        state = stack.pop()
        k = key(state)
        if k in seen or not state.to_move:
            continue
        seen[k] = state
        seat = state.to_move[0]
        stack.extend(classic.apply(state, seat, m) for m in classic.legal_moves(state, seat))
    return list(seen.values())


@pytest.mark.parametrize("options", HOUSE_RULES, ids=lambda o: f"{''.join(o['symbols'])}-{o['first']}-first")
def test_strong_is_perfect_from_every_reachable_position(options):
    """Never loses, wins whenever it can, as fast as it can (and loses as slowly as it can)."""
    oracle = Oracle()
    positions = reachable(options)
    assert len(positions) == 4_520  # 5,478 minus the 958 finished positions
    rng = random.Random(0)
    kinds = {"win": 0, "draw": 0, "loss": 0}
    for state in positions:
        seat = state.to_move[0]
        best = oracle.value(state)
        kinds["win" if best > 0 else "draw" if best == 0 else "loss"] += 1
        for _ in range(2):  # the strong AI picks at random among its best moves
            move = choose_move(classic, state, seat, "strong", rng)
            assert oracle.move_value(state, seat, move) == best, (classic.view(state, None)["board"], move)
    # the check saw won, drawn and lost positions for the mover
    assert all(kinds.values()), kinds


@pytest.mark.parametrize("options", HOUSE_RULES[:2], ids=["X-first", "O-first"])
@pytest.mark.parametrize("ai_seat", [0, 1])
def test_strong_never_loses_against_any_line_of_play(options, ai_seat):
    rng = random.Random(ai_seat)
    results = {"win": 0, "draw": 0}

    def walk(state):
        outcome = classic.outcome(state)
        if outcome is not None:
            assert outcome.winner in (ai_seat, None)
            results["win" if outcome.winner == ai_seat else "draw"] += 1
            return
        seat = state.to_move[0]
        if seat == ai_seat:
            walk(classic.apply(state, seat, choose_move(classic, state, seat, "strong", rng)))
        else:
            for move in classic.legal_moves(state, seat):
                walk(classic.apply(state, seat, move))

    walk(classic.new_game(options, seed=1))
    assert results["win"] > 0 and results["draw"] > 0


def test_player_one_in_the_centre_is_a_draw_with_perfect_play():
    # FAQ: "If Player One goes into the center space, it will always end in a draw."
    assert Oracle().value(classic.apply(classic.new_game(seed=1), 0, {"cell": 5})) == 0


def test_strong_wins_at_least_95_percent_against_random():
    rng = random.Random(2024)
    wins = losses = 0
    games = 200
    for game in range(games):
        ai_seat = game % 2
        state = classic.new_game(HOUSE_RULES[game % 4], seed=game)
        while state.to_move:
            seat = state.to_move[0]
            level = "strong" if seat == ai_seat else "random"
            state = classic.apply(state, seat, choose_move(classic, state, seat, level, rng))
        winner = classic.outcome(state).winner
        wins += winner == ai_seat
        losses += winner == 1 - ai_seat
    assert losses == 0
    assert wins / games >= 0.95, wins


def test_strong_exact_win_chance_against_a_uniformly_random_opponent():
    """The exact figure behind the sampled test: every opponent move and every tie-break."""

    def chance(state, ai_seat) -> Fraction:
        outcome = classic.outcome(state)
        if outcome is not None:
            return Fraction(int(outcome.winner == ai_seat))
        seat = state.to_move[0]
        if seat == ai_seat:
            mine, theirs = classic_ai.masks(classic, state, seat)
            cells = classic_ai.best_cells(mine, theirs)
            moves = [{"cell": c} for c in cells]
        else:
            moves = classic.legal_moves(state, seat)
        return sum((chance(classic.apply(state, seat, m), ai_seat) for m in moves), Fraction(0)) / len(moves)

    first = chance(classic.new_game(seed=1), 0)
    second = chance(classic.new_game(seed=1), 1)
    assert first > Fraction(99, 100) and second > Fraction(90, 100)
    assert (first + second) / 2 >= Fraction(95, 100)




# -- casual: human-like ----------------------------------------------------------------------------


def positions_where(test):
    return [s for s in reachable(HOUSE_RULES[0]) if test(s)]


def winning_cells(state, seat):
    return [
        m["cell"] for m in classic.legal_moves(state, seat) if classic.outcome(classic.apply(state, seat, m))
    ]


def threats(state, seat):
    """Squares where the other seat would complete a line next."""
    board = classic.view(state, None)["board"]
    other_letter = classic.view(state, None)["symbols"][1 - seat]
    cells = []
    for cell in range(1, 10):
        if board[cell - 1] is None:
            trial = list(board)
            trial[cell - 1] = other_letter
            lines = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7)]
            if any(all(trial[c - 1] == other_letter for c in line) for line in lines):
                cells.append(cell)
    return cells


def test_casual_usually_takes_a_win_but_sometimes_misses_it():
    rng = random.Random(5)
    spots = positions_where(lambda s: winning_cells(s, s.to_move[0]))
    taken = sum(
        choose_move(classic, s, s.to_move[0], "casual", rng)["cell"] in winning_cells(s, s.to_move[0])
        for s in spots
    )
    rate = taken / len(spots)
    assert 0.8 < rate < 0.99, rate


def test_casual_usually_blocks_but_sometimes_does_not():
    rng = random.Random(6)
    spots = positions_where(lambda s: threats(s, s.to_move[0]) and not winning_cells(s, s.to_move[0]))
    blocked = sum(
        choose_move(classic, s, s.to_move[0], "casual", rng)["cell"] in threats(s, s.to_move[0])
        for s in spots
    )
    rate = blocked / len(spots)
    assert 0.65 < rate < 0.97, rate


def test_levels_are_ordered_random_casual_strong():
    def score(level_a, level_b, games=300):
        """Points of level_a (win 1, draw 1/2) against level_b, seats alternating."""
        rng = random.Random(level_a + level_b)
        points = 0.0
        for game in range(games):
            a_seat = game % 2
            state = classic.new_game(seed=game)
            while state.to_move:
                seat = state.to_move[0]
                level = level_a if seat == a_seat else level_b
                state = classic.apply(state, seat, choose_move(classic, state, seat, level, rng))
            winner = classic.outcome(state).winner
            points += 1 if winner == a_seat else 0.5 if winner is None else 0
        return points / games

    casual_vs_random = score("casual", "random")
    strong_vs_casual = score("strong", "casual")
    assert casual_vs_random > 0.7  # random vs random scores 0.5 by symmetry of seats
    assert strong_vs_casual > 0.6  # and strong never loses (checked exhaustively above)
