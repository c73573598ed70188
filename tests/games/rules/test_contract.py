"""Properties every variant must have, checked through the public contract only.

Each variant present in the registry is picked up automatically.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import RuleError, get_variant, variant_slugs
from games.rules.ai import choose_move

SLUGS = variant_slugs()
MAX_PLIES = 2000

junk_moves = st.recursive(
    st.none() | st.booleans() | st.integers(-50, 50) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=3),
    max_leaves=8,
)


def play_random(variant, seed: int, options=None):
    """Play a random legal game; return (moves, states) with states[0] the start."""
    rng = random.Random(seed)
    state = variant.new_game(options, seed=seed)
    states = [state]
    moves = []
    for _ in range(MAX_PLIES):
        if not state.to_move:
            break
        seat = rng.choice(state.to_move)
        move = variant.random_move(state, seat, rng)
        state = variant.apply(state, seat, move)
        moves.append((seat, move))
        states.append(state)
    return moves, states


def test_unknown_slug_is_refused():
    with pytest.raises(RuleError) as err:
        get_variant("chess")
    assert err.value.code == "unknown-variant"


def test_part_one_variants_are_registered():
    for slug in ("classic", "rock-paper-scissors", "tactic-toe", "nine-square"):
        assert get_variant(slug).slug == slug


@pytest.mark.parametrize("slug", SLUGS)
def test_options_schema_is_json_and_defaults_validate(slug):
    variant = get_variant(slug)
    json.dumps(variant.options_schema)
    assert variant.options_schema["type"] == "object"
    variant.new_game(variant.default_options(), seed=1)


@pytest.mark.parametrize("slug", SLUGS)
def test_bad_options_are_refused(slug):
    variant = get_variant(slug)
    for bad in ("X", 3, ["a"], {"no-such-option": True}):
        with pytest.raises(RuleError) as err:
            variant.new_game(bad, seed=1)
        assert err.value.code == "bad-options"


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_games_end_and_round_trip(slug, seed):
    variant = get_variant(slug)
    moves, states = play_random(variant, seed)
    final = states[-1]
    assert final.to_move == (), "a random legal game must end"
    outcome = variant.outcome(final)
    assert outcome is not None
    assert outcome.result in ("win", "draw", "tie")
    assert (outcome.winner is None) == (outcome.result != "win")
    for state in states[:-1]:
        assert variant.outcome(state) is None
    # dump/load round-trips, through real JSON
    for state in states[:: max(1, len(states) // 10)] + [final]:
        data = json.loads(json.dumps(variant.dump(state)))
        assert variant.dump(variant.load(data)) == variant.dump(state)
    # replay from the seed and the moves reproduces the state
    assert variant.dump(variant.replay(moves, None, seed)) == variant.dump(final)
    # views are JSON-ready for every viewer
    for viewer in (0, 1, None):
        json.dumps(variant.view(final, viewer))


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), junk=junk_moves)
def test_apply_never_changes_its_input_and_junk_changes_nothing(slug, seed, junk):
    variant = get_variant(slug)
    _, states = play_random(variant, seed)
    rng = random.Random(seed)
    state = states[rng.randrange(len(states))]
    before = json.dumps(variant.dump(state), sort_keys=True)
    for seat in (0, 1):
        try:
            variant.apply(state, seat, junk)
        except RuleError as err:
            assert err.code and err.message
        assert json.dumps(variant.dump(state), sort_keys=True) == before
        if seat in state.to_move:
            move = variant.random_move(state, seat, rng)
            variant.apply(state, seat, move)
            assert json.dumps(variant.dump(state), sort_keys=True) == before


@pytest.mark.parametrize("slug", SLUGS)
def test_moves_out_of_turn_and_after_the_end_are_refused(slug):
    variant = get_variant(slug)
    moves, states = play_random(variant, 7)
    final = states[-1]
    seat, move = moves[-1]
    with pytest.raises(RuleError):
        variant.apply(final, seat, move)
    assert variant.legal_moves(final, 0) == [] and variant.legal_moves(final, 1) == []
    start = states[0]
    for seat in (0, 1):
        if seat not in start.to_move:
            other_move = variant.random_move(start, start.to_move[0], random.Random(1))
            with pytest.raises(RuleError):
                variant.apply(start, seat, other_move)


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("level", ["random", "casual", "strong"])
def test_ai_plays_legal_moves_at_every_level(slug, level):
    variant = get_variant(slug)
    rng = random.Random(3)
    state = variant.new_game(None, seed=3)
    for _ in range(MAX_PLIES):
        if not state.to_move:
            break
        seat = state.to_move[0]
        state = variant.apply(state, seat, choose_move(variant, state, seat, level, rng))
    assert variant.outcome(state) is not None


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("seat", [True, False, 1.0, "0", None, 2, -1])
def test_only_0_and_1_are_seats(slug, seat):
    variant = get_variant(slug)
    state = variant.new_game(None, seed=1)
    move = variant.random_move(state, state.to_move[0], random.Random(1))
    with pytest.raises(RuleError) as err:
        variant.apply(state, seat, move)
    assert err.value.code == "bad-seat"
    with pytest.raises(RuleError):
        variant.legal_moves(state, seat)
