"""Matches and deciders (games/rules/match.py): pure logic, no Django."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import Outcome, RuleError, get_variant
from games.rules.chance import roll_die
from games.rules.match import (
    DECIDERS,
    FORMATS,
    NEXT_FIRST,
    ON_DRAW,
    MatchRules,
    MatchState,
    new_match,
)

WIN0 = Outcome(result="win", winner=0)
WIN1 = Outcome(result="win", winner=1)
DRAW = Outcome(result="draw")


def play(match: MatchState, winners: list[int | None]) -> MatchState:
    """Record games won by match players (None: drawn)."""
    for winner in winners:
        match = match.record(winner)
    return match


# -- deciders: who is Player One (FAQ: "Any method is acceptable. Rock Paper Scissors, for example.")


def test_decider_rock_paper_scissors_waits_for_the_thrown_game_and_its_winner_is_player_one():
    rps = get_variant("rock-paper-scissors")
    match = new_match({"first": "rock-paper-scissors"}, seed=1)
    assert match.pending_decision == "rock-paper-scissors"
    assert match.player_one is None
    with pytest.raises(RuleError) as err:
        match.record(0)
    assert err.value.code == "decision-pending"
    # Match player 1 sits at the decider's seat 0 here: the mapping must be honoured.
    game = rps.new_game(seed=1)
    game = rps.apply(game, 0, {"throw": "rock"})
    game = rps.apply(game, 1, {"throw": "rock"})  # a tie is thrown again
    game = rps.apply(game, 1, {"throw": "scissors"})
    game = rps.apply(game, 0, {"throw": "rock"})
    outcome = rps.outcome(game)
    assert outcome is not None and outcome.winner == 0
    decided = match.decide_by_outcome(outcome, seat_of_player0=1)
    assert decided.player_one == 1
    assert decided.decisions[-1].method == "rock-paper-scissors"


def test_decider_game_without_a_winner_is_refused():
    match = new_match({"first": "rock-paper-scissors"}, seed=1)
    with pytest.raises(RuleError) as err:
        match.decide_by_outcome(DRAW)
    assert err.value.code == "decider-undecided"


def test_decider_coin_is_fair_and_reproducible_from_the_seed():
    firsts = Counter(new_match({"first": "coin"}, seed=s).player_one for s in range(400))
    assert set(firsts) == {0, 1}
    assert 150 < firsts[0] < 250  # a fair coin: 400 tosses land 200 +- 50 with near certainty
    for s in range(20):
        assert new_match({"first": "coin"}, seed=s) == new_match({"first": "coin"}, seed=s)
    toss = new_match({"first": "coin"}, seed=3).decisions[0]
    assert toss.detail in ("heads", "tails") and (toss.detail == "heads") == (toss.player_one == 0)


def test_decider_die_higher_roll_is_player_one_and_equal_rolls_are_rolled_again():
    rerolled = 0
    for s in range(200):
        match = new_match({"first": "die"}, seed=s)
        # The last two draws are the deciding rolls; earlier pairs were ties.
        rolls = [roll_die(match.seed, i) for i in range(match.chance_draws)]
        pairs = list(zip(rolls[::2], rolls[1::2], strict=True))
        assert all(a == b for a, b in pairs[:-1])
        a, b = pairs[-1]
        assert a != b
        assert match.player_one == (0 if a > b else 1)
        rerolled += len(pairs) > 1
    assert rerolled > 0  # 1 in 6 seeds start with a tie


def test_decider_higher_seed_is_player_one():
    assert new_match({"first": "higher-seed"}, seed=1, seed_ranks=(4, 1)).player_one == 1
    assert new_match({"first": "higher-seed"}, seed=1, seed_ranks=(2, 9)).player_one == 0
    for ranks in (None, (3, 3)):
        with pytest.raises(RuleError) as err:
            new_match({"first": "higher-seed"}, seed=1, seed_ranks=ranks)
        assert err.value.code == "no-seed-ranks"


@pytest.mark.parametrize("method", ["organiser", "given"])
def test_decider_organiser_or_given_names_player_one(method):
    match = new_match({"first": method}, seed=1)
    assert match.pending_decision == method
    assert match.decide(1, "the club chose").player_one == 1
    with pytest.raises(RuleError) as err:
        match.decide(2)
    assert err.value.code == "bad-player"
    with pytest.raises(RuleError) as err:
        match.decide(0).decide(1)
    assert err.value.code == "no-decision-pending"


def test_player_two_is_the_other_participant():
    # FAQ: "Find the other participant who is not Player One. That is Player Two."
    match = new_match({"first": "organiser"}, seed=1).decide(1)
    assert match.player_at(0) == 1 and match.player_at(1) == 0
    assert match.game_seat(1) == 0 and match.game_seat(0) == 1


# -- formats ---------------------------------------------------------------------------


def test_best_of_stops_once_the_leader_cannot_be_caught():
    match = new_match({"format": "best-of", "games": 3}, seed=1)
    match = play(match, [0, 0])
    assert match.is_over and match.winner == 0 and match.result == "win"
    assert match.score == (2, 0) and match.games_played == 2
    with pytest.raises(RuleError) as err:
        match.record(1)
    assert err.value.code == "match-over"


def test_best_of_level_after_all_games_is_a_drawn_match():
    match = play(new_match({"format": "best-of", "games": 3}, seed=1), [0, None, 1])
    assert match.is_over and match.winner is None and match.result == "draw"
    assert match.drawn_games == 1


def test_all_games_are_played_even_once_decided():
    # T-Tic-T-Tac-Toe 3.1.08: "the remaining games must be played in order to finish the match."
    match = play(new_match({"format": "all", "games": 5}, seed=1), [1, 1, 1])
    assert match.is_decided and not match.is_over and match.winner == 1
    assert match.next_game == 4 and match.player_one is not None
    match = play(match, [0, 0])
    assert match.is_over and match.score == (2, 3) and match.winner == 1


def test_first_to_replays_drawn_games():
    match = play(new_match({"format": "first-to", "games": 1}, seed=1), [None, None, None])
    assert not match.is_over and not match.is_decided
    match = match.record(0)
    assert match.is_over and match.winner == 0 and match.games_played == 4


def test_first_to_with_a_cap_ends_at_the_cap():
    match = play(new_match({"format": "first-to", "games": 2, "max_games": 3}, seed=1), [0, None, None])
    assert match.is_over and match.winner == 0


# -- who goes first next -------------------------------------------------------------------


def firsts_after(next_first: str, winners: list[int | None], on_draw: str = "alternate") -> list[int | None]:
    rules = {"format": "all", "games": len(winners) + 1, "first": "organiser"}
    match = new_match({**rules, "next_first": next_first, "on_draw": on_draw}, seed=1).decide(0)
    firsts = [match.player_one]
    for winner in winners:
        match = match.record(winner)
        firsts.append(match.player_one)
    return firsts


def test_next_first_loser_of_previous_game():
    # T-Tic-T-Tac-Toe 3.1.06: "The loser of the previous t-tic-t-tac-toe game goes first"
    assert firsts_after("loser", [0, 0, 1]) == [0, 1, 1, 0]


def test_next_first_winner_of_previous_game():
    assert firsts_after("winner", [1, 0, 0]) == [0, 1, 0, 0]


def test_next_first_alternates():
    assert firsts_after("alternate", [0, 0, None]) == [0, 1, 0, 1]


def test_next_first_same():
    assert firsts_after("same", [1, None, 1]) == [0, 0, 0, 0]


@pytest.mark.parametrize(("on_draw", "expected"), [("alternate", [0, 1, 0]), ("same", [0, 0, 0])])
def test_after_a_draw_with_loser_rule(on_draw, expected):
    assert firsts_after("loser", [None, None], on_draw) == expected


def test_next_first_decider_decides_afresh_before_every_game():
    # T-Tic-T-Tac-Toe 2.03(d): a cat's game starts over with rock-paper-scissors.
    match = new_match(
        {"format": "first-to", "games": 1, "first": "rock-paper-scissors", "next_first": "decider"}, seed=1
    )
    match = match.decide(1)
    match = match.record(None)
    assert match.pending_decision == "rock-paper-scissors" and match.player_one is None
    match = match.decide(0).record(0)
    assert match.is_over and [d.player_one for d in match.decisions] == [1, 0]


def test_on_draw_decider_tosses_a_new_coin():
    match = new_match({"format": "all", "games": 3, "next_first": "loser", "on_draw": "decider"}, seed=5)
    draws_before = match.chance_draws
    match = match.record(None)
    assert match.chance_draws == draws_before + 1 and match.decisions[-1].method == "coin"


def test_record_outcome_maps_game_seats_to_match_players():
    match = new_match({"first": "organiser", "format": "all", "games": 2}, seed=1).decide(1)
    match = match.record_outcome(WIN0)  # game seat 0 was match player 1
    assert match.results[0].winner == 1 and match.results[0].player_one == 1


def test_a_win_needs_a_winner_and_a_draw_none():
    match = new_match(None, seed=1)
    for winner, result in ((None, "win"), (0, "draw"), (0, "bogus")):
        with pytest.raises(RuleError) as err:
            match.record(winner, result)
        assert err.value.code == "bad-result"
    with pytest.raises(RuleError) as err:
        match.record(3)
    assert err.value.code == "bad-player"


@pytest.mark.parametrize(
    "bad",
    [
        "best-of",
        {"format": "sudden-death"},
        {"games": 0},
        {"games": True},
        {"first": "arm-wrestling"},
        {"next_first": "youngest"},
        {"on_draw": "loser"},
        {"max_games": 5},
        {"format": "first-to", "games": 3, "max_games": 2},
        {"colour": "blue"},
    ],
)
def test_bad_match_rules_are_refused(bad):
    with pytest.raises(RuleError) as err:
        new_match(bad, seed=1)
    assert err.value.code == "bad-match-rules"


def test_match_state_is_immutable():
    match = new_match(None, seed=1)
    with pytest.raises(AttributeError):
        match.player_one = 1  # type: ignore[misc]
    after = match.record(0)
    assert match.results == () and after.results != ()


# -- properties ---------------------------------------------------------------------------

rules_strategy = st.builds(
    lambda fmt, games, first, next_first, on_draw: MatchRules(
        format=fmt, games=games, first=first, next_first=next_first, on_draw=on_draw
    ),
    st.sampled_from(FORMATS),
    st.integers(1, 7),
    st.sampled_from(DECIDERS),
    st.sampled_from(NEXT_FIRST),
    st.sampled_from(ON_DRAW),
)


@settings(max_examples=150, deadline=None)
@given(
    rules=rules_strategy,
    seed=st.integers(0, 10**6),
    winners=st.lists(st.sampled_from([0, 1, None]), max_size=20),
)
def test_property_match_invariants_and_dump_load_round_trip(rules, seed, winners):
    match = new_match(rules, seed=seed, seed_ranks=(1, 2))
    rng = random.Random(seed)
    for winner in winners:
        if match.is_over:
            break
        if match.pending_decision is not None:
            match = match.decide(rng.randrange(2))
        assert match.player_one in (0, 1)
        before = match
        match = match.record(winner)
        assert before.games_played + 1 == match.games_played  # the old value is unchanged
        # dump/load round-trips through real JSON
        data = json.loads(json.dumps(match.dump()))
        assert MatchState.load(data) == match
        assert MatchState.load(data).dump() == match.dump()
        a, b = match.score
        assert a + b + match.drawn_games == match.games_played
        if match.is_over:
            assert match.player_one is None and match.pending_decision is None and match.next_game is None
            assert match.result in ("win", "draw")
            if rules.format == "all":
                assert match.games_played == rules.games
        elif rules.format in ("best-of", "all"):
            assert match.games_played < rules.games
        if match.winner is not None:
            assert match.score[match.winner] > match.score[1 - match.winner]
    # every game's Player One was recorded by a decision for that game
    assert [d.game for d in match.decisions[: match.games_played]] == list(range(1, match.games_played + 1))
