"""Every entry point taking a seat or a viewer is as strict as apply(), for every variant.

A seat is the int 0 or 1; a viewer is a seat or None (an observer). Anything else
(True, 1.0, "0", 2, -1, ...) is refused with RuleError("bad-seat"), never read as a seat.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import RuleError, get_variant, variant_slugs
from games.rules.ai import LEVELS, choose_move

SLUGS = variant_slugs()

#: Values that are no seat: bools and floats equal to 0 or 1, texts, other numbers, containers.
bad_seats = (
    st.sampled_from([True, False, 0.0, 1.0, "0", "1", 2, -1, b"0"])
    | st.integers().filter(lambda n: n not in (0, 1))
    | st.floats()
    | st.text(max_size=3)
    | st.lists(st.integers(0, 1), max_size=2)
    | st.tuples(st.integers(0, 1))
)


def _refused(call, *args) -> None:
    with pytest.raises(RuleError) as err:
        call(*args)
    assert err.value.code == "bad-seat"


def _running_states(variant, seed: int) -> list:
    """A few states of a random game, each with a seat to move."""
    rng = random.Random(seed)
    state = variant.new_game(None, seed=seed)
    states: list[Any] = []
    while state.to_move and len(states) < 6:
        states.append(state)
        seat = state.to_move[0]
        state = variant.apply(state, seat, variant.random_move(state, seat, rng))
    return states


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=60, deadline=None)
@given(seat=bad_seats, seed=st.integers(0, 5), pick=st.integers(0, 5))
def test_every_entry_point_refuses_what_is_no_seat(slug, seat, seed, pick):
    variant = get_variant(slug)
    states = _running_states(variant, seed)
    state = states[pick % len(states)]
    move = variant.random_move(state, state.to_move[0], random.Random(seed))
    rng = random.Random(seed)
    _refused(variant.view, state, seat)
    _refused(variant.legal_moves, state, seat)
    _refused(variant.apply, state, seat, move)
    _refused(variant.random_move, state, seat, rng)
    _refused(variant.strong_move, state, seat, rng)
    _refused(variant.casual_move, state, seat, rng)
    for level in LEVELS:
        _refused(choose_move, variant, state, seat, level, rng)


@pytest.mark.parametrize("slug", SLUGS)
def test_none_is_an_observer_for_view_and_no_seat_elsewhere(slug):
    variant = get_variant(slug)
    state = variant.new_game(None, seed=1)
    rng = random.Random(1)
    assert variant.view(state, None)["to_move"] == list(state.to_move)
    for call, args in (
        (variant.legal_moves, (state, None)),
        (variant.random_move, (state, None, rng)),
        (variant.strong_move, (state, None, rng)),
        (choose_move, (variant, state, None, "random", rng)),
    ):
        _refused(call, *args)


@pytest.mark.parametrize("slug", ["rock-paper-scissors", "tactic-toe"])
def test_true_never_shows_seat_ones_secret(slug):
    # True == 1 in Python: read as a seat, it would show Player Two's secret throw or plan.
    variant = get_variant(slug)
    state = variant.new_game(None, seed=1)
    state = variant.apply(state, 1, variant.random_move(state, 1, random.Random(1)))
    _refused(variant.view, state, True)
    _refused(variant.view, state, 1.0)
