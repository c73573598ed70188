"""Rock, Paper, Scissors (the FAQ footnote of seed text 000, and T-Tic-T-Tac-Toe 2.02)."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import RuleError, get_variant
from games.rules.ai import choose_move

THROWS = ("rock", "paper", "scissors")
rps = get_variant("rock-paper-scissors")


def throw(state, seat, what):
    return rps.apply(state, seat, {"throw": what})


def both(state, a, b):
    return throw(throw(state, 0, a), 1, b)


def test_both_players_throw_at_once():
    # "On three, both players form their hands into the shape of ..."
    state = rps.new_game(seed=1)
    assert state.to_move == (0, 1)
    assert rps.legal_moves(state, 0) == rps.legal_moves(state, 1) == [{"throw": t} for t in THROWS]
    # either may be first in; the other still has to throw
    assert throw(state, 1, "rock").to_move == (0,)
    assert throw(state, 0, "rock").to_move == (1,)


def test_a_player_throws_once_per_throw():
    state = throw(rps.new_game(seed=1), 0, "rock")
    with pytest.raises(RuleError) as err:
        throw(state, 0, "paper")
    assert err.value.code == "already-thrown"
    assert rps.legal_moves(state, 0) == []


@pytest.mark.parametrize(("a", "b"), list(product(THROWS, THROWS)))
def test_paper_covers_rock_rock_pummels_scissors_scissors_cut_paper(a, b):
    beats = {("paper", "rock"), ("rock", "scissors"), ("scissors", "paper")}
    outcome = rps.outcome(both(rps.new_game(seed=1), a, b))
    if a == b:
        assert outcome is None
    elif (a, b) in beats:
        assert outcome.result == "win" and outcome.winner == 0
    else:
        assert (b, a) in beats
        assert outcome.result == "win" and outcome.winner == 1


def test_reason_uses_the_footnotes_words():
    assert rps.outcome(both(rps.new_game(seed=1), "rock", "paper")).reason == "Paper covers rock."
    assert rps.outcome(both(rps.new_game(seed=1), "rock", "scissors")).reason == "Rock pummels scissors."
    assert rps.outcome(both(rps.new_game(seed=1), "paper", "scissors")).reason == "Scissors cut paper."


def test_a_tie_is_thrown_again_and_the_history_is_kept():
    # T-Tic-T-Tac-Toe 2.02(b): "If a tie occurs, both players must play again until a winner is decided."
    state = both(rps.new_game(seed=1), "rock", "rock")
    assert state.to_move == (0, 1) and rps.outcome(state) is None
    state = both(state, "paper", "paper")
    state = both(state, "scissors", "rock")
    assert rps.view(state, None)["history"] == [["rock", "rock"], ["paper", "paper"], ["scissors", "rock"]]
    assert state.to_move == () and rps.outcome(state).winner == 1


def test_no_throw_after_the_winner_is_decided():
    state = both(rps.new_game(seed=1), "rock", "scissors")
    with pytest.raises(RuleError) as err:
        throw(state, 1, "rock")
    assert err.value.code == "game-over"


@pytest.mark.parametrize(
    "bad", ["rock", {"throw": "lizard"}, {"throw": "Rock"}, {"throw": 1}, {"throw": None}]
)
def test_only_rock_paper_or_scissors_can_be_thrown(bad):
    with pytest.raises(RuleError) as err:
        rps.apply(rps.new_game(seed=1), 0, bad)
    assert err.value.code in ("malformed-move", "unknown-throw")


def test_unrevealed_throw_is_seen_only_by_its_owner():
    state = throw(rps.new_game(seed=1), 0, "scissors")
    assert rps.view(state, 0)["my_throw"] == "scissors"
    for viewer in (1, None):
        view = rps.view(state, viewer)
        shown = {key: value for key, value in view.items() if key != "variant"}  # the slug says "scissors"
        assert "scissors" not in json.dumps(shown)
        assert view["submitted"] == [True, False]


def test_both_throws_are_visible_once_both_are_in():
    state = both(rps.new_game(seed=1), "scissors", "paper")
    for viewer in (0, 1, None):
        assert rps.view(state, viewer)["history"][-1] == ["scissors", "paper"]


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"history": [["rock", "lizard"]], "pending": [None, None], "seed": "1"},
        {"history": [], "pending": ["rock", "paper"], "seed": "1"},  # both in: it would be revealed
        {"history": [], "pending": [None], "seed": "1"},
    ],
)
def test_load_refuses_what_cannot_be_a_stored_game(data):
    with pytest.raises(RuleError) as err:
        rps.load(data)
    assert err.value.code == "bad-state"


def test_bad_options_and_seats_are_refused():
    with pytest.raises(RuleError) as err:
        rps.new_game({"best_of": 3})
    assert err.value.code == "bad-options"
    with pytest.raises(RuleError) as err:
        throw(rps.new_game(seed=1), 2, "rock")
    assert err.value.code == "bad-seat"


# -- properties -------------------------------------------------------------------------

plays = st.lists(st.tuples(st.sampled_from([0, 1]), st.sampled_from(THROWS)), max_size=30)


@settings(max_examples=200, deadline=None)
@given(plays=plays)
def test_property_no_view_for_the_wrong_viewer_reveals_a_pending_throw(plays):
    state = rps.new_game(seed=1)
    for seat, what in plays:
        if seat not in state.to_move:
            continue
        state = throw(state, seat, what)
        # What the other seat and observers see must not depend on the owner's pending throw:
        # swap the pending throw for each alternative and compare their views.
        pending = state.pending
        for owner in (0, 1):
            if pending[owner] is None:
                continue
            for alternative in THROWS:
                data = rps.dump(state)
                data["pending"][owner] = alternative
                other_state = rps.load(data)
                for viewer in (1 - owner, None):
                    assert rps.view(other_state, viewer) == rps.view(state, viewer)
        # and round-trips
        assert rps.dump(rps.load(json.loads(json.dumps(rps.dump(state))))) == rps.dump(state)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_property_a_finished_game_has_exactly_one_decisive_throw_at_the_end(seed):
    rng = random.Random(seed)
    state = rps.new_game(seed=seed)
    while state.to_move:
        seat = rng.choice(state.to_move)
        state = rps.apply(state, seat, rps.random_move(state, seat, rng))
    history = rps.view(state, None)["history"]
    assert all(a == b for a, b in history[:-1]) and history[-1][0] != history[-1][1]


# -- AI ----------------------------------------------------------------------------------


def test_strong_ai_throws_uniformly_at_random_the_nash_equilibrium():
    rng = random.Random(11)
    state = rps.new_game(seed=1)
    counts = Counter(choose_move(rps, state, 0, "strong", rng)["throw"] for _ in range(3000))
    # uniform: each near 1000 (a 6-sigma band is about +-155)
    assert set(counts) == set(THROWS)
    assert all(850 < counts[t] < 1150 for t in THROWS)


def test_casual_ai_favours_rock_like_people_do():
    rng = random.Random(12)
    state = rps.new_game(seed=1)
    counts = Counter(choose_move(rps, state, 1, "casual", rng)["throw"] for _ in range(3000))
    assert counts["rock"] > counts["paper"] and counts["rock"] > counts["scissors"]


def test_strong_ai_is_not_beaten_by_the_casual_player_on_average():
    # Against the equilibrium every strategy wins as often as it loses (about half each).
    rng = random.Random(13)
    wins = Counter()
    for game in range(600):
        state = rps.new_game(seed=game)
        while state.to_move:
            seat = state.to_move[0]
            state = rps.apply(
                state, seat, choose_move(rps, state, seat, "strong" if seat == 0 else "casual", rng)
            )
        wins[rps.outcome(state).winner] += 1
    assert 0.4 < wins[0] / 600 < 0.6
