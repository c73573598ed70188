"""Official T-Tic-T-Tac-Toe: property tests (hypothesis), geometry properties and the AI."""

from __future__ import annotations

import json
import random
from typing import cast

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import RuleError, get_variant
from games.rules.ai import choose_move
from games.rules.variants.t_tic_t_tac_toe import ai as ttt_ai
from games.rules.variants.t_tic_t_tac_toe import geometry as geo
from games.rules.variants.t_tic_t_tac_toe.ai import strong_move
from games.rules.variants.t_tic_t_tac_toe.notation import WALLS
from games.rules.variants.t_tic_t_tac_toe.state import TTTState
from tests.games.rules.ai_clock import stepping_clock

V = get_variant("t-tic-t-tac-toe")

#: The longest game possible: 25 squares + 8 re-filled after two supers' gooshes, four
#: player blockages, five destructions (the centre wall too), two checkpoints, two supers.
MAX_MOVES = 25 + 8 + 4 + 5 + 2 + 2

options_strategy = st.fixed_dictionaries(
    {
        "version": st.sampled_from(["1.0", "2.0"]),
        "symbols": st.sampled_from([["X", "O"], ["O", "X"]]),
        "first": st.sampled_from(["X", "O"]),
        "confirm_moves": st.booleans(),
        "take_backs": st.integers(0, 3),
        "bwahs": st.booleans(),
    }
)


def random_game(options: dict, seed: int) -> tuple[list[tuple[int, dict]], list[TTTState]]:
    rng = random.Random(seed)
    state = V.new_game(options, seed=seed)
    moves: list[tuple[int, dict]] = []
    states = [cast(TTTState, state)]
    while state.to_move and len(moves) < 1000:
        seat = state.to_move[0]
        move = V.random_move(state, seat, rng)
        state = V.apply(state, seat, move)
        moves.append((seat, move))
        states.append(cast(TTTState, state))
    return moves, states


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=options_strategy, seed=st.integers(0, 2**32))
def test_random_legal_games_end_within_the_bound_and_round_trip(options, seed):
    moves, states = random_game(options, seed)
    final = states[-1]
    assert final.to_move == () and V.outcome(final) is not None
    assert final.ply <= MAX_MOVES
    extra = 2 * options["take_backs"] * 2  # a pending move and its take-back
    assert len(moves) <= (2 * MAX_MOVES if options["confirm_moves"] else MAX_MOVES) + extra
    for state in states:
        data = json.loads(json.dumps(V.dump(state)))
        assert V.dump(V.load(data)) == V.dump(state)
        assert V.load(data) == state
    assert V.dump(V.replay(moves, options, seed)) == V.dump(final)
    outcome = V.outcome(final)
    if outcome.result == "win":
        letter = final.symbols[outcome.winner]
        assert geo.has_line(final.cells, final.blocked, letter)
        assert not geo.has_line(final.cells, final.blocked, final.symbols[1 - outcome.winner])
    else:
        for state in states[:-1]:
            assert not geo.has_line(state.cells, state.blocked, "X")


move_strategy = st.one_of(
    st.builds(lambda s: {"action": "place", "square": s}, st.integers(0, 26)),
    st.builds(
        lambda s, letter: {"action": "place", "square": s, "symbol": letter},
        st.integers(1, 25),
        st.sampled_from("XOZ"),
    ),
    st.builds(
        lambda line: {"action": "curtain", "line": line}, st.sampled_from(["h1", "h4", "v2", "v5", "x"])
    ),
    st.builds(lambda line: {"action": "snip", "line": line}, st.sampled_from(["h1", "h2", "v2", "v3"])),
    st.builds(
        lambda a, s: {"action": a, "around": s},
        st.sampled_from(["wall", "tear-down", "checkpoint"]),
        st.integers(0, 26),
    ),
    st.builds(
        lambda a, w: {"action": a, "segments": w.split("+")},
        st.sampled_from(["wall", "tear-down"]),
        st.sampled_from([*[n for n in WALLS if "+" in n][::5], "1|2+3|4"]),
    ),
    st.builds(lambda s: {"action": "super", "square": s}, st.integers(1, 25)),
    st.sampled_from([{"action": "confirm"}, {"action": "take-back"}, {"action": "checkpoint", "line": "h2"}]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=options_strategy,
    seed=st.integers(0, 2**32),
    moves=st.lists(move_strategy, min_size=1, max_size=4),
)
def test_apply_accepts_exactly_the_legal_moves_and_never_changes_its_input(options, seed, moves):
    _, states = random_game(options, seed)
    state = states[random.Random(seed).randrange(len(states))]
    before = json.dumps(V.dump(state), sort_keys=True)
    for seat in (0, 1):
        legal = V.legal_moves(state, seat)
        canonical = {json.dumps(m, sort_keys=True) for m in legal}
        for move in moves:
            try:
                after = V.apply(state, seat, move)
            except RuleError as err:
                assert err.code and err.message
                assert json.dumps(move, sort_keys=True) not in canonical
            else:
                assert isinstance(after, TTTState)
                # an accepted move is listed (placing your own letter by name is the plain placement)
                plain = {k: v for k, v in move.items() if not (k == "symbol" and v == state.symbols[seat])}
                assert json.dumps(plain, sort_keys=True) in canonical
        assert json.dumps(V.dump(state), sort_keys=True) == before


@settings(max_examples=25, deadline=None)
@given(options=options_strategy, seed=st.integers(0, 2**32))
def test_views_hold_no_secret_and_are_json(options, seed):
    _, states = random_game(options, seed)
    for state in states[:: max(1, len(states) // 5)]:
        views = [V.view(state, viewer) for viewer in (0, 1, None)]
        assert views[0] == views[1] == views[2]
        json.dumps(views[0])
        assert len(views[0]["board"]) == 25 and views[0]["to_move"] == list(state.to_move)


@given(a=st.integers(1, 25), b=st.integers(1, 25), blocked=st.integers(0, 2**40 - 1))
def test_geometry_steps_are_symmetric_and_curtains_cut_every_crossing(a, b, blocked):
    ra, ca = geo.row_col(a)
    rb, cb = geo.row_col(b)
    if max(abs(ra - rb), abs(ca - cb)) != 1:
        return
    assert geo.step_blocked(a, b, blocked) == geo.step_blocked(b, a, blocked)
    assert not geo.step_blocked(a, b, 0)
    for line, mask in geo.LINE_MASK.items():
        crosses = (line[0] == "h" and min(ra, rb) + 1 == int(line[1]) and ra != rb) or (
            line[0] == "v" and min(ca, cb) + 1 == int(line[1]) and ca != cb
        )
        assert geo.step_blocked(a, b, mask) == crosses


# -- the AI ---------------------------------------------------------------------------------------------


def test_strong_beats_random_in_at_least_95_percent_of_200_games():
    wins = 0
    for game in range(200):
        rng = random.Random(game)
        strong_seat = game % 2
        state = V.new_game({"version": ("1.0", "2.0")[game // 2 % 2]}, seed=game)
        while state.to_move:
            seat = state.to_move[0]
            if seat == strong_seat:
                move = strong_move(V, state, seat, rng, budget=0.0, width=0)  # one ply: cheap
            else:
                move = V.random_move(state, seat, rng)
            state = V.apply(state, seat, move)
        wins += V.outcome(state).winner == strong_seat
    assert wins >= 190, wins


def test_strong_answers_within_a_second_with_its_default_budget(monkeypatch):
    # By the AI's own clock: the real latencies are bench/engine.py's.
    clock = stepping_clock(monkeypatch, ttt_ai)
    rng = random.Random(1)
    for version in ("1.0", "2.0"):
        state = V.new_game({"version": version}, seed=1)
        for _ in range(6):  # the opening and middle game, where the move lists are longest
            seat = state.to_move[0]
            started, readings = clock.now, clock.readings
            move = choose_move(V, state, seat, "strong", rng)
            assert clock.now - started < 1.0 and clock.readings > readings
            state = V.apply(state, seat, move)
            if not state.to_move:
                break


def _position(picture: str, version: str = "2.0") -> TTTState:
    data = V.dump(V.new_game({"version": version}, seed=1))
    data["cells"] = [None if ch == "." else ch for ch in picture.split()]
    data["ply"] = 8
    data["blockages"] = []
    return cast(TTTState, V.load(data))


def test_strong_takes_a_win_in_one():
    state = _position("X X . . . O O . . . O . . . . . . . . . . . . . .")
    assert strong_move(V, state, 0, random.Random(1)) == {"action": "place", "square": 3}


def test_strong_stops_a_win_in_one_of_the_opponent():
    state = _position("X . . . X . . . . . . . . . . O O . . . . . . . X")
    move = strong_move(V, state, 0, random.Random(1))
    after = V.apply(state, 0, move)
    assert not geo.threats(after.cells, after.blocked, "O")  # 16-17-18 and 15-16-17 are stopped


def test_casual_and_strong_never_make_a_bwah_and_play_legal_moves():
    for level in ("casual", "strong"):
        rng = random.Random(5)
        state = V.new_game({"version": "2.0", "confirm_moves": True}, seed=5)
        while state.to_move:
            seat = state.to_move[0]
            move = choose_move(V, state, seat, level, rng)
            assert move in V.legal_moves(state, seat)
            assert move.get("symbol") in (None, state.symbols[seat])
            state = V.apply(state, seat, move)


@settings(max_examples=200, deadline=None)
@given(
    action=st.sampled_from(["place", "wall", "tear-down", "checkpoint", "snip", "curtain", "super"]),
    key=st.sampled_from(["square", "segments", "around", "line", "symbol"]),
    value=st.one_of(
        st.text(max_size=6),
        st.integers(),
        st.lists(st.one_of(st.text(alphabet="0123456789|²١ ", max_size=6), st.integers()), max_size=3),
        st.none(),
        st.booleans(),
        st.floats(allow_nan=True),
    ),
)
def test_untrusted_move_fields_raise_only_rule_errors(action, key, value):
    state = V.apply(V.new_game({"version": "1.0"}, seed=1), 0, {"action": "place", "square": 1})
    try:
        V.apply(state, 1, {"action": action, key: value})
    except RuleError as err:
        assert err.code and err.message
