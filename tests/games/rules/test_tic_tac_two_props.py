"""Tic Tac Two: property tests over random legal games (hypothesis)."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import RuleError, get_variant

V = get_variant("tic-tac-two")
SIDES = ("top", "bottom", "left", "right")

options_strategy = st.fixed_dictionaries({"meta": st.booleans(), "void": st.booleans()})

#: Every move a client could send that names real squares: the legal moves are among these.
MOVE_UNIVERSE = (
    [{"type": "pick", "action": a} for a in ("double", "swap", "shift", "dibs", "intersect", "wall")]
    + [{"type": t, "cell": c} for t in ("void", "write", "double", "dibs", "intersect") for c in range(1, 17)]
    + [{"type": "swap", "cells": [a, b]} for a, b in itertools.combinations(range(1, 17), 2)]
    + [
        {"type": "shift", "line": line, "index": n, "direction": d}
        for line, ways in (("row", ("left", "right")), ("column", ("up", "down")))
        for n in range(1, 5)
        for d in ways
    ]
    + [{"type": t, "cell": c, "side": s} for t in ("wall", "topple") for c in range(1, 17) for s in SIDES]
)


def random_game(seed: int, options: dict[str, bool]) -> list:
    rng = random.Random(seed)
    state = V.new_game(options, seed=seed)
    states = [state]
    while state.to_move:
        seat = state.to_move[0]
        state = V.apply(state, seat, V.random_move(state, seat, rng))
        states.append(state)
    return states


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), options=options_strategy)
def test_legal_moves_are_exactly_the_moves_apply_accepts(seed, options):
    states = random_game(seed, options)
    rng = random.Random(seed)
    for state in rng.sample(states, min(4, len(states))):
        for seat in (0, 1):
            legal = V.legal_moves(state, seat)
            legal_names = [V.describe_move(m) for m in legal]
            assert len(set(legal_names)) == len(legal_names), "each legal move is listed once"
            accepted = set()
            for move in MOVE_UNIVERSE:
                try:
                    V.apply(state, seat, move)
                except RuleError as err:
                    assert err.code and err.message
                    continue
                accepted.add(V.describe_move(move))
            assert accepted == set(legal_names)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), options=options_strategy)
def test_rule_invariants_hold_in_random_games(seed, options):
    states = random_game(seed, options)
    assert len(states) < 120  # every turn writes a letter and the grid fills up
    for state in states:
        view = V.view(state, None)
        actions = view["actions"]
        for seat in (0, 1):
            held, used = Counter(actions[seat]["held"]), Counter(actions[seat]["used"])
            assert len(actions[seat]["held"]) <= 3
            assert not used - held, "only held actions are used, each copy once"
            dibs_left = sum(1 for d in view["dibs"] if d["owner"] == seat)
            walls_left = sum(1 for w in view["walls"] if w["owner"] == seat)
            assert dibs_left <= used["dibs"] and walls_left <= used["wall"]
        if not options["meta"]:
            both = actions[0]["held"] + actions[1]["held"]
            assert len(both) == len(set(both)), "without Meta no action is held twice"
        if view["phase"] == "play":
            assert len(view["voids"]) == (2 if options["void"] else 0)
        for cell in view["voids"]:
            assert view["board"][cell - 1] is None, "no letter is ever written on a Void"
        if view["outcome"] is None:
            assert view["winning_lines"] == [] and view["to_move"]
            # The seat to move can always finish its turn.
            assert V.legal_moves(state, view["to_move"][0])
        else:
            assert view["to_move"] == []
            if view["outcome"]["winner"] is not None:
                assert view["winning_lines"]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), options=options_strategy)
def test_no_view_holds_a_secret_every_viewer_sees_the_same(seed, options):
    # Nothing in Tic Tac Two is hidden: the draft is written beside the grid.
    states = random_game(seed, options)
    for state in states[:: max(1, len(states) // 6)]:
        views = [json.dumps(V.view(state, viewer), sort_keys=True) for viewer in (0, 1, None)]
        assert views[0] == views[1] == views[2]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), options=options_strategy)
def test_a_turn_is_actions_and_topples_then_exactly_one_letter(seed, options):
    rng = random.Random(seed)
    state = V.new_game(options, seed=seed)
    turn: list[str] = []
    while state.to_move:
        seat = state.to_move[0]
        move = V.random_move(state, seat, rng)
        after = V.apply(state, seat, move)
        if V.view(state, None)["phase"] == "play":
            turn.append(move["type"])
            if move["type"] == "write":
                actions = [t for t in turn if t not in ("write", "topple")]
                assert len(actions) <= 1
                assert after.to_move in ((1 - seat,), ())
                turn = []
            elif after.to_move:
                assert after.to_move == (seat,), "the same player goes on until the letter"
        state = after


junk = st.recursive(
    st.none() | st.booleans() | st.integers(-50, 50) | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=10,
)


#: A new game, a Void placement, and states in play (mid-turn included).
JUNK_TARGETS = [V.new_game(None, seed=1), *random_game(5, {"meta": False, "void": True})[7:-1:3]]


@settings(max_examples=120, deadline=None)
@given(
    move=junk
    | st.fixed_dictionaries(
        {"type": st.sampled_from(["write", "swap", "shift", "wall", "topple", "pick"])},
        optional={
            "cell": junk,
            "cells": junk,
            "side": junk,
            "line": junk,
            "index": junk,
            "direction": junk,
            "action": junk,
        },
    )
)
def test_junk_moves_are_refused_cleanly_and_described_without_error(move):
    assert isinstance(V.describe_move(move), str)
    for state in JUNK_TARGETS:
        for seat in (0, 1):
            try:
                V.apply(state, seat, move)
            except RuleError as err:
                assert err.code and err.message
