"""Multi-stage events, the pure parts (league/formats/stages.py, round_robin's groups):
the snake seeding, each group's own Berger table, and the knockout seeds carried over."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.formats import round_robin
from league.formats.single_elimination import bracket_order, bracket_size
from league.formats.stages import group_letter, knockout_seeds, snake_group, snake_groups


def test_snake_seeding_of_sixteen_into_four_groups():
    assert snake_groups(16, 4) == [[1, 8, 9, 16], [2, 7, 10, 15], [3, 6, 11, 14], [4, 5, 12, 13]]
    assert [snake_group(seed, 3) for seed in range(1, 8)] == [1, 2, 3, 3, 2, 1, 1]


@given(st.integers(1, 80), st.integers(1, 12))
def test_snake_groups_hold_every_seed_once_and_differ_by_at_most_one(n, groups):
    members = snake_groups(n, groups)
    assert sorted(seed for group in members for seed in group) == list(range(1, n + 1))
    sizes = [len(group) for group in members]
    assert max(sizes) - min(sizes) <= 1


def test_group_letters():
    assert [group_letter(g) for g in (1, 2, 4, 26, 27)] == ["A", "B", "D", "Z", "AA"]


def test_grouped_round_robin_pairs_within_groups_only_and_everyone_once():
    n, groups = 16, 4
    members = [set(group) for group in snake_groups(n, groups)]
    rounds = round_robin.grouped_round_count(n, groups)
    assert rounds == 3
    met: Counter[frozenset[int]] = Counter()
    for number in range(1, rounds + 1):
        boards = round_robin.grouped_round(n, groups, number)
        assert len(boards) == 8
        seats = [seed for _, a, b in boards for seed in (a, b)]
        assert sorted(seats) == list(range(1, n + 1))  # everyone plays every round
        for group, a, b in boards:
            assert b is not None and {a, b} <= members[group - 1]
            met[frozenset((a, b))] += 1
    assert set(met) == {frozenset(pair) for group in members for pair in combinations(group, 2)}
    assert set(met.values()) == {1}


def test_groups_of_unequal_size_play_until_the_largest_is_done():
    # 7 in 2 groups: A = 1, 4, 5 (3 rounds, a bye each) and B = 2, 3, 6, 7 (3 rounds)
    assert snake_groups(7, 2) == [[1, 4, 5], [2, 3, 6, 7]]
    assert round_robin.grouped_round_count(7, 2) == 3
    byes = [a for number in (1, 2, 3) for _, a, b in round_robin.grouped_round(7, 2, number) if b is None]
    assert sorted(byes) == [1, 4, 5]
    assert round_robin.grouped_round(7, 2, 4) == []


def _slots(seeds):
    """The knockout's first-round pairs and halves, as (group, place) labels."""
    order = bracket_order(bracket_size(len(seeds)))
    placed = [seeds[s - 1] if s <= len(seeds) else None for s in order]
    return placed


@pytest.mark.parametrize("groups, per_group", [(2, 2), (4, 2), (8, 2)])
def test_group_winners_meet_runners_up_of_other_groups_in_opposite_halves(groups, per_group):
    qualifiers = [[(g, place) for place in range(1, per_group + 1)] for g in range(groups)]
    seeds = knockout_seeds(qualifiers)
    assert seeds[:groups] == [(g, 1) for g in range(groups)]  # the winners, in group order, on top
    placed = _slots(seeds)
    half = len(placed) // 2
    for a, b in zip(placed[::2], placed[1::2], strict=True):
        assert {a[1], b[1]} == {1, 2} and a[0] != b[0]  # a winner against another group's runner-up
    for g in range(groups):
        winner, runner_up = placed.index((g, 1)), placed.index((g, 2))
        assert (winner < half) != (runner_up < half)  # they can meet in the final only


def test_three_from_each_of_four_groups_meet_a_group_mate_no_earlier_than_the_semi_finals():
    qualifiers = [[(g, place) for place in (1, 2, 3)] for g in "ABCD"]
    placed = _slots(knockout_seeds(qualifiers))
    assert placed.count(None) == 4  # byes go to the winners
    for i, j in combinations(range(16), 2):
        a, b = placed[i], placed[j]
        if a and b and a[0] == b[0]:
            assert (i ^ j).bit_length() >= 3  # different quarters: they meet in a semi-final at the earliest


def test_one_group_keeps_its_order():
    assert knockout_seeds([["x", "y", "z", "w"]]) == ["x", "y", "z", "w"]
