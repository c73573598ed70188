"""Single and double elimination: seeding, byes, brackets played out with random winners."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.formats.double_elimination import DoubleElimination
from league.formats.single_elimination import SingleElimination, bracket_order, first_round


def test_bracket_order_8_and_16():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_bracket_order_rejects_non_powers_of_two():
    with pytest.raises(ValueError):
        bracket_order(6)


def test_first_round_of_six_gives_byes_to_seeds_1_and_2():
    assert first_round(6) == [(1, None), (4, 5), (2, None), (3, 6)]


@given(st.integers(min_value=0, max_value=11))
def test_bracket_order_keeps_top_seeds_apart(k):
    size = 1 << k
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    # In every aligned block of 2^j slots the best seed is one of the top size/2^j seeds.
    for j in range(k + 1):
        block = 1 << j
        bests = sorted(min(order[i : i + block]) for i in range(0, size, block))
        assert bests == list(range(1, size // block + 1))


@given(st.integers(min_value=2, max_value=300))
def test_first_round_byes_only_for_top_seeds(n):
    pairs = first_round(n)
    size = 2 * len(pairs)
    assert size >= n > size // 2
    assert all(a is not None for a, _ in pairs)  # never a bye against a bye
    bye_seeds = sorted(a for a, b in pairs if b is None)
    assert bye_seeds == list(range(1, size - n + 1))
    assert sorted(p for pair in pairs for p in pair if p is not None) == list(range(1, n + 1))


def _play(event, rnd: random.Random) -> list:
    played = []
    while event.playable():
        match = rnd.choice(event.playable())
        played.append(list(match.players))
        event.record(match.id, rnd.choice(match.players))
    return played


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=70), st.booleans(), st.integers(min_value=0, max_value=10**6))
def test_single_elimination_plays_n_minus_one_matches(n, third, seed):
    event = SingleElimination(n, third_place=third)
    played = _play(event, random.Random(seed))
    assert event.is_over and event.champion is not None
    assert len(played) == n - 1 + (1 if third and n >= 4 else 0)
    losses = Counter()
    for m in event.matches:
        if m.loser is not None and m.bracket == "winners":
            losses[m.loser] += 1
    assert all(v == 1 for v in losses.values()) and event.champion not in losses
    assert len(losses) == n - 1  # everyone but the champion lost exactly once


def test_third_place_match_between_semi_final_losers():
    event = SingleElimination(8, third_place=True)
    while event.playable():
        m = event.playable()[0]
        event.record(m.id, min(m.players))  # the better seed always wins
    assert event.champion == 1 and event.final.loser == 2
    assert sorted(event.third_place.players) == [3, 4] and event.third_place.winner == 3


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=70), st.sampled_from(["reset", "single"]), st.integers(0, 10**6))
def test_double_elimination_needs_two_losses(n, final, seed):
    event = DoubleElimination(n, grand_final=final)
    played = _play(event, random.Random(seed))
    assert event.is_over and event.champion is not None
    losses = Counter()
    for m in event.matches:
        if m.loser is not None and not m.walkover:
            losses[m.loser] += 1
    # Everybody except the champion is out with exactly two losses; the champion has at most one.
    # (With a single grand final the winners' champion may lose it with one loss: no reset.)
    assert losses[event.champion] <= 1
    runner_up = event.grand_final.loser if final == "single" else None
    assert all(losses[p] == 2 for p in range(1, n + 1) if p not in (event.champion, runner_up))
    if runner_up is not None:
        assert losses[runner_up] in (1, 2)
    reset_played = event.reset is not None and not event.reset.void
    assert len(played) == 2 * n - 2 + (1 if reset_played else 0)


def test_reset_only_when_losers_champion_wins_the_grand_final():
    event = DoubleElimination(4)
    while not event.grand_final.playable:
        m = event.playable()[0]
        event.record(m.id, min(m.players))
    assert event.grand_final.players[0] == 1
    event.record(event.grand_final.id, event.grand_final.players[1])
    assert event.reset.playable  # the winners' champion has lost once: a deciding match
    event.record(event.reset.id, 1)
    assert event.champion == 1


@pytest.mark.parametrize("n", [8, 16, 32, 64])
def test_first_drop_in_round_has_no_rematches(n):
    # Losers of winners' round 2 drop in reversed, so they never meet someone they just beat.
    for seed in range(30):
        event = DoubleElimination(n)
        rnd = random.Random(seed)
        met: set[frozenset] = set()
        while event.playable():
            m = rnd.choice(event.playable())
            pair = frozenset(m.players)
            if m.bracket == "losers" and m.round == 2:
                assert pair not in met
            met.add(pair)
            event.record(m.id, rnd.choice(m.players))
