"""load() refuses a damaged dump, or gives a state every entry point can work with.

Each example takes a stored state of a random game and damages it: a value of the wrong
type, a number out of range, a list too long or too short, a key missing or extra, or a
piece of the same dump moved somewhere else. Then either load() raises RuleError, or
view, legal_moves and outcome all answer (and a move is played or refused with a
RuleError): never another exception. Nor does load() coerce: what it accepts has the
types dump() writes ("5", 5.0 or True are no counter 5 or 1). And the engine's compiled
schema check (games/rules/schema.py) agrees with the jsonschema library on every one.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from functools import cache
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import RuleError, get_variant, variant_slugs

SLUGS = variant_slugs()

#: The library's draft 2020-12, reading integers as the engine does (an int, never 1.0).
StrictValidator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda checker, value: type(value) is int
    ),
)

scalars = (
    st.none()
    | st.booleans()
    | st.sampled_from([-1, 0, 1, 2, 3, 6, 7, 9, 10, 16, 25, 26, 81, 2**40, -(2**63)])
    | st.integers()
    | st.floats(allow_nan=False)
    | st.sampled_from([0.0, 1.0, 2.5])
    | st.text(max_size=4)
    | st.sampled_from(
        ["X", "O", "", ".", "rock", "wall", "curtain", "h2", "around 13", "8|13", "roll", "swap"]
    )
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=2),
    max_leaves=6,
)


@cache
def stored_states(slug: str) -> tuple[dict[str, Any], ...]:
    """Dumps of some states of a few random games (start, middle, end)."""
    variant = get_variant(slug)
    dumps = []
    for seed in range(4):
        rng = random.Random(seed)
        state = variant.new_game(None, seed=seed)
        states = [state]
        while state.to_move:
            seat = rng.choice(state.to_move)
            state = variant.apply(state, seat, variant.random_move(state, seat, rng))
            states.append(state)
        for state in states[:: max(1, len(states) // 5)] + [states[-1]]:
            dumps.append(json.loads(json.dumps(variant.dump(state))))
    return tuple(dumps)


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``data``: the root, each key's value, each list item, recursively."""
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths(value, (*prefix, index))
    return found


def type_clashes(stored: Any, dumped: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The places present in both where the stored value's JSON type is not the dumped one's."""
    if type(stored) is not type(dumped):
        return [path]
    if isinstance(stored, dict):
        return [
            p
            for key in stored.keys() & dumped.keys()
            for p in type_clashes(stored[key], dumped[key], (*path, key))
        ]
    if isinstance(stored, list):
        return [p for i, (a, b) in enumerate(zip(stored, dumped)) for p in type_clashes(a, b, (*path, i))]
    return []


def at(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


@st.composite
def damaged(draw: st.DrawFn, slug: str) -> dict[str, Any]:
    dumps = stored_states(slug)
    data = copy.deepcopy(dumps[draw(st.integers(0, len(dumps) - 1))])
    for _ in range(draw(st.integers(1, 3))):
        places = paths(data)
        path = draw(st.sampled_from(places))
        node = at(data, path)
        kinds = ["replace", "transplant"]
        if isinstance(node, bool):
            kinds.append("flip")
        elif isinstance(node, int):
            kinds.append("shift")
        if isinstance(node, list):
            kinds += ["drop", "duplicate", "append", "reverse"]
        if isinstance(node, dict):
            kinds += ["delete-key", "extra-key"]
        kind = draw(st.sampled_from(kinds))
        if kind == "replace":
            new: Any = draw(json_values)
        elif kind == "transplant":  # a piece of the same dump, in the wrong place
            new = copy.deepcopy(at(data, draw(st.sampled_from(places))))
        elif kind == "flip":
            new = not node
        elif kind == "shift":
            new = node + draw(st.sampled_from([-(2**40), -100, -2, -1, 1, 2, 5, 100, 2**40]))
        elif kind in ("drop", "duplicate", "append", "reverse"):
            new = list(node)
            if kind == "drop" and new:
                del new[draw(st.integers(0, len(new) - 1))]
            elif kind == "duplicate" and new:
                new.append(copy.deepcopy(new[draw(st.integers(0, len(new) - 1))]))
            elif kind == "append":
                new.append(draw(json_values))
            else:
                new.reverse()
        elif kind == "delete-key":
            new = dict(node)
            if new:
                del new[draw(st.sampled_from(sorted(new)))]
        else:
            new = {**node, draw(st.text(min_size=1, max_size=6)): draw(json_values)}
        if not path:
            if not isinstance(new, dict):
                return new  # the whole dump replaced by something that is no object
            data = new
        else:
            at(data, path[:-1])[path[-1]] = new
    return data


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_damaged_dump_is_refused_or_gives_a_working_state(slug, data):
    variant = get_variant(slug)
    broken = data.draw(damaged(slug))
    try:
        variant.check_dump(broken)
        matches = True
    except RuleError:
        matches = False
    assert matches == StrictValidator(variant.state_schema).is_valid(broken)
    try:
        state = variant.load(broken)
    except RuleError as err:
        assert err.code == "bad-state" and err.message
        return
    assert not type_clashes(broken, variant.dump(state))
    for viewer in (0, 1, None):
        json.dumps(variant.view(state, viewer))
    for seat in (0, 1):
        assert isinstance(variant.legal_moves(state, seat), list)
    outcome = variant.outcome(state)
    assert outcome is None or outcome.result in ("win", "draw", "tie")
    rng = random.Random(0)
    for seat in state.to_move:
        with contextlib.suppress(RuleError):  # refused is fine; crashing is not
            variant.apply(state, seat, variant.random_move(state, seat, rng))


@pytest.mark.parametrize("slug", SLUGS)
def test_the_stored_states_themselves_load(slug):
    variant = get_variant(slug)
    for stored in stored_states(slug):
        assert variant.dump(variant.load(stored)) == stored


def test_t_tic_t_tac_toe_refuses_a_first_seat_of_2():
    # It used to load, and view() then failed with an IndexError.
    variant = get_variant("t-tic-t-tac-toe")
    data = variant.dump(variant.new_game(None, seed=1))
    with pytest.raises(RuleError) as err:
        variant.load({**data, "first": 2})
    assert err.value.code == "bad-state"


@pytest.mark.parametrize(
    "damage",
    [{"draws": "5"}, {"draws": -1}, {"draws": 5.0}, {"turn": True}, {"turn": "3"}, {"turn": -2}],
)
def test_nine_square_refuses_junk_counters(damage):
    variant = get_variant("nine-square")
    data = variant.dump(variant.new_game(None, seed=1))
    with pytest.raises(RuleError) as err:
        variant.load({**data, **damage})
    assert err.value.code == "bad-state"
