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
    event = SingleElimination(n, placements="third" if third else "none")
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
    event = SingleElimination(8, placements="third")
    while event.playable():
        m = event.playable()[0]
        event.record(m.id, min(m.players))  # the better seed always wins
    assert event.champion == 1 and event.final.loser == 2
    assert sorted(event.third_place.players) == [3, 4] and event.third_place.winner == 3
    # The quarter-finals' losers share 5th, as without placement matches.
    assert event.places() == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5, 7: 5, 8: 5}


def _play_rounds(event, rnd: random.Random, better_wins: bool = False) -> list[list]:
    """Round by round: every match playable at a round's start is played in it."""
    rounds: list[list] = []
    while event.playable():
        batch = list(event.playable())
        seen = [p for m in batch for p in m.players]
        assert len(seen) == len(set(seen)), f"a player in two matches of round {len(rounds) + 1}"
        for m in batch:
            event.record(m.id, min(m.players) if better_wins else rnd.choice(m.players))
        rounds.append(batch)
    return rounds


@pytest.mark.parametrize("n", range(4, 17))
@pytest.mark.parametrize("seed", range(5))
def test_every_place_decided_with_all_placements(n, seed):
    event = SingleElimination(n, placements="all")
    rounds = _play_rounds(event, random.Random(seed))
    assert event.is_over
    assert sorted(event.places().values()) == list(range(1, n + 1))
    assert len(rounds) == event.rounds  # no longer than the main bracket
    assert event.places()[event.champion] == 1 and event.places()[event.final.loser] == 2


@pytest.mark.parametrize("n", range(4, 17))
def test_places_follow_the_seeds_when_the_better_seed_always_wins(n):
    event = SingleElimination(n, placements="all")
    _play_rounds(event, random.Random(0), better_wins=True)
    assert event.places() == {seed: seed for seed in range(1, n + 1)}


def test_places_5_to_8_are_played_in_the_semi_finals_round_then_the_final_round():
    event = SingleElimination(8, placements="all")
    placement = [m for m in event.matches if m.bracket == "placement"]
    assert sorted((m.round, m.places, m.block) for m in placement) == [
        (2, (5, 8), (5, 8)), (2, (5, 8), (5, 8)), (3, (3, 4), (3, 4)), (3, (5, 6), (5, 8)), (3, (7, 8), (5, 8)),
    ]


def test_consolation_bracket_of_first_round_losers():
    event = SingleElimination(8, consolation=True)
    _play_rounds(event, random.Random(0), better_wins=True)
    consolation = [m for m in event.matches if m.bracket == "consolation"]
    assert sorted(p for m in consolation if m.round == 2 for p in m.players) == [5, 6, 7, 8]
    assert event.consolation_winner == 5 and event.champion == 1
    # The consolation decides no place: the first round's losers still share 5th.
    assert {event.places()[seed] for seed in (5, 6, 7, 8)} == {5}


def test_bye_holder_losing_their_first_match_joins_the_consolation():
    event = SingleElimination(6, consolation=True)  # seeds 1 and 2 have byes
    for m in event.playable():  # round 1: 4 beats 5, 3 beats 6
        event.record(m.id, min(m.players))
    for m in event.playable():
        if m.bracket == "winners":  # round 2: the lower seeds win, 1 and 2 lose their first match
            event.record(m.id, max(m.players))
    assert sorted(sorted(m.players) for m in event.playable() if m.bracket == "consolation") == [[1, 5], [2, 6]]


def test_bye_holder_winning_round_two_stays_out_of_the_consolation():
    event = SingleElimination(6, consolation=True)
    _play_rounds(event, random.Random(0), better_wins=True)
    played = {p for m in event.matches if m.bracket == "consolation" and not m.walkover for p in m.players}
    assert played == {5, 6} and event.consolation_winner == 5


@pytest.mark.parametrize("n", range(5, 17))
@pytest.mark.parametrize("seed", range(5))
def test_consolation_and_third_place_one_match_a_round(n, seed):
    event = SingleElimination(n, placements="third", consolation=True)
    rounds = _play_rounds(event, random.Random(seed))  # it asserts one match a round each
    assert event.is_over and event.consolation_winner is not None
    assert len(rounds) <= event.rounds + 1  # a bye's holder joins the consolation a round late


def test_small_fields_have_no_consolation_and_all_places_refuse_one():
    assert SingleElimination(4, consolation=True).consolation_final is None
    with pytest.raises(ValueError):
        SingleElimination(8, placements="all", consolation=True)
    with pytest.raises(ValueError):
        SingleElimination(8, placements="fourth")


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
