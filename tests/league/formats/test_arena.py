"""Arena: streak points, immediate pairing, no immediate rematches, a hard end."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from league.formats.arena import Arena


def test_streak_doubles_points_after_two_wins():
    arena = Arena(duration=600)
    for p in ("a", "b", "c"):
        arena.join(p, now=0)
    scores = []
    opponents = iter(["b", "c", "b", "c", "b"])
    arena.leave("c")
    for t, opp in enumerate(opponents, start=1):
        arena.waiting.pop("b", None), arena.waiting.pop("c", None)
        arena.waiting[opp] = t
        ((first, second),) = arena.pair(now=t)
        assert {first, second} == {"a", opp}
        winner = "a" if t != 4 else None  # win, win, win (on fire), draw (on fire), win
        arena.finish(first, second, winner, now=t + 0.5)
        scores.append(arena.players["a"].results[-1][1])
    assert scores == [2, 2, 4, 2, 2]
    assert arena.players["a"].points == 12


def test_no_pairing_after_the_end_and_running_games_still_count():
    arena = Arena(duration=60, start=100)
    arena.join("a", 100)
    arena.join("b", 100)
    ((first, second),) = arena.pair(101)
    arena.finish(first, second, first, now=200)  # after the end
    assert arena.players[first].points == 2
    assert arena.pair(200) == [] and not arena.waiting


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=3, max_value=30), st.integers(0, 10**6))
def test_pairs_nearest_scores_without_immediate_rematches(n, seed):
    rnd = random.Random(seed)
    arena = Arena(duration=200)
    for i in range(n):
        arena.join(i, 0)
    ongoing: list[tuple[int, int]] = []
    for now in range(1, 200):
        last = {p: arena.players[p].last_opponent for p in arena.waiting}
        free_points = sorted((arena.players[p].points for p in arena.waiting), reverse=True)
        pairs = arena.pair(now)
        assert len(pairs) == len(last) // 2  # everyone free is paired at once (one may wait)
        for k, (first, second) in enumerate(pairs):
            if last[first] == second or last[second] == first:
                assert k == len(pairs) - 1  # a rematch only when nobody else was left to pair
        if pairs:  # the top of the table meets the top of the table
            assert (
                arena.players[pairs[0][0]].points == free_points[0]
                or arena.players[pairs[0][1]].points == free_points[0]
            )
        ongoing += pairs
        for game in list(ongoing):
            if rnd.random() < 0.4:
                ongoing.remove(game)
                arena.finish(*game, rnd.choice([game[0], game[1], None]), now)
    for p in arena.players.values():
        assert sum(pts for _, pts in p.results) == p.points
        started = p.games + (1 if any(p.id in g for g in ongoing) else 0)
        assert abs(2 * p.firsts - started) <= 3  # greedy first-move balance: a small drift only
