"""Round robin: FIDE's Berger tables exactly, and the properties of every table."""

from __future__ import annotations

from collections import Counter
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.formats.round_robin import berger, double_berger, round_count


def _parse(table: str) -> list[list[tuple[int, int]]]:
    rounds: list[list[tuple[int, int]]] = []
    for line in table.strip().splitlines():
        pairs = line.split(":", 1)[1].split(",")
        rounds.append([cast(tuple[int, int], tuple(int(x) for x in pair.strip().split("-"))) for pair in pairs])
    return rounds


# FIDE Handbook C.05 Annex 1 (Berger tables), as published.
FIDE_4 = """
1: 1-4, 2-3
2: 4-3, 1-2
3: 2-4, 3-1
"""
FIDE_6 = """
1: 1-6, 2-5, 3-4
2: 6-4, 5-3, 1-2
3: 2-6, 3-1, 4-5
4: 6-5, 1-4, 2-3
5: 3-6, 4-2, 5-1
"""
FIDE_8 = """
1: 1-8, 2-7, 3-6, 4-5
2: 8-5, 6-4, 7-3, 1-2
3: 2-8, 3-1, 4-7, 5-6
4: 8-6, 7-5, 1-4, 2-3
5: 3-8, 4-2, 5-1, 6-7
6: 8-7, 1-6, 2-5, 3-4
7: 4-8, 5-3, 6-2, 7-1
"""
FIDE_10 = """
1: 1-10, 2-9, 3-8, 4-7, 5-6
2: 10-6, 7-5, 8-4, 9-3, 1-2
3: 2-10, 3-1, 4-9, 5-8, 6-7
4: 10-7, 8-6, 9-5, 1-4, 2-3
5: 3-10, 4-2, 5-1, 6-9, 7-8
6: 10-8, 9-7, 1-6, 2-5, 3-4
7: 4-10, 5-3, 6-2, 7-1, 8-9
8: 10-9, 1-8, 2-7, 3-6, 4-5
9: 5-10, 6-4, 7-3, 8-2, 9-1
"""
FIDE_14_ROUND_7 = "7: 4-14, 5-3, 6-2, 7-1, 8-13, 9-12, 10-11"


@pytest.mark.parametrize(("n", "table"), [(4, FIDE_4), (6, FIDE_6), (8, FIDE_8), (10, FIDE_10)])
def test_matches_fide_tables(n, table):
    assert berger(n) == _parse(table)


def test_matches_fide_14_round_7():
    assert berger(14)[6] == _parse(FIDE_14_ROUND_7)[0]


def test_odd_field_uses_next_table_with_bye():
    # 5 players: the 6-player table, player 6 is the bye.
    expected = [
        [(b, None) if a == 6 else (a, None) if b == 6 else (a, b) for a, b in rnd] for rnd in _parse(FIDE_6)
    ]
    assert berger(5) == expected


def test_double_round_robin_reverses_colours():
    rounds = double_berger(4)
    assert rounds[:3] == _parse(FIDE_4)
    assert rounds[3:] == [[(b, a) for a, b in rnd] for rnd in _parse(FIDE_4)]


def test_swap_last_two_exchanges_the_first_cycles_last_rounds():
    for n in (4, 7, 10):
        plain, swapped = berger(n), double_berger(n, swap_last_two=True)
        k = len(plain)
        assert swapped[: k - 2] == plain[:-2]
        assert swapped[k - 2] == plain[-1] and swapped[k - 1] == plain[-2]
        assert swapped[k:] == [[(b, a) if b is not None else (a, b) for a, b in rnd] for rnd in swapped[:k]]


@pytest.mark.parametrize("bad", [0, 1, -3, True])
def test_rejects_too_few_players(bad):
    with pytest.raises(ValueError):
        berger(bad)


@given(st.integers(min_value=2, max_value=40))
def test_everyone_meets_everyone_once_colours_within_one(n):
    rounds = berger(n)
    assert len(rounds) == n - 1 + n % 2
    meetings: Counter[frozenset[int]] = Counter()
    firsts: Counter[int] = Counter()
    seconds: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    for rnd in rounds:
        seen = [p for pair in rnd for p in pair if p is not None]
        assert sorted(seen) == list(range(1, n + 1))  # everybody exactly once per round
        for a, b in rnd:
            if b is None:
                byes[a] += 1
                continue
            meetings[frozenset((a, b))] += 1
            firsts[a] += 1
            seconds[b] += 1
    assert len(meetings) == n * (n - 1) // 2 and set(meetings.values()) == {1}
    assert all(byes[p] == n % 2 for p in range(1, n + 1))
    assert all(abs(firsts[p] - seconds[p]) <= 1 for p in range(1, n + 1))


@given(st.integers(min_value=2, max_value=30))
def test_double_round_robin_each_pair_once_with_each_colour(n):
    games = Counter((a, b) for rnd in double_berger(n) for a, b in rnd if b is not None)
    assert len(games) == n * (n - 1) and set(games.values()) == {1}


@given(st.integers(min_value=2, max_value=60), st.sampled_from([1, 2]))
def test_round_count_is_the_length_of_the_table(n, cycles):
    assert round_count(n, cycles) == len(berger(n, cycles))
