"""The pure rating package: FIDE's tables and rules, Glickman's worked example, and
properties that must hold for any ratings (hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.ratings import elo, glicko2, periods

# -- FIDE table 8.1.2 -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("difference", "high"),
    [(0, 0.50), (3, 0.50), (4, 0.51), (10, 0.51), (11, 0.52), (99, 0.64), (106, 0.64), (107, 0.65),
     (198, 0.76), (345, 0.89), (391, 0.91), (392, 0.92), (400, 0.92), (620, 0.99), (735, 0.99), (736, 1.00)],
)
def test_the_table_gives_each_band_its_score(difference, high):
    # Both players rated 2650+ so the 400-point rule does not cut the wide differences.
    assert elo.expected(2700 + difference, 2700) == high
    assert elo.expected(2700, 2700 + difference) == pytest.approx(1 - high)


def test_a_difference_over_400_counts_as_400_below_2650():
    assert elo.expected(2600, 1900) == 0.92  # 700 counted as 400
    assert elo.expected(1900, 2600) == 0.08
    assert elo.change(2600, [(1900, 1.0)], 10) == pytest.approx(0.8)


def test_from_2650_the_real_difference_is_used():
    assert elo.expected(2700, 2000) == 0.99  # 700: band 620-735
    assert elo.expected(2700, 1900) == 1.00  # 800 > 735
    assert elo.change(2700, [(1900, 1.0)], 10) == 0.0
    assert elo.change(2700, [(1900, 0.5)], 10) == pytest.approx(-5.0)
    # The lower rated player still has the 400 cap: 0.08, not 0.00.
    assert elo.expected(1900, 2700) == 0.08


def test_a_period_of_three_games_worked_by_hand():
    # 2200 (K 20) vs 2300 (expects 0.36) draws, vs 2100 (0.64) wins, vs 1700 (500
    # counted as 400: 0.92) wins: 20 x (0.14 + 0.36 + 0.08) = 11.6, published as 12.
    results = [(2300, 0.5), (2100, 1.0), (1700, 1.0)]
    assert elo.change(2200, results, 20) == pytest.approx(11.6)
    assert elo.rounded_change(2200, results, 20) == 12


def test_fide_rounds_half_up_whether_the_change_is_positive_or_negative():
    # 10 x (1 - 0.55) = 4.5 -> 5;  10 x (0 - 0.55) = -5.5 -> -5.
    assert elo.expected(2000, 1965) == 0.55
    assert elo.rounded_change(2000, [(1965, 1.0)], 10) == 5
    assert elo.rounded_change(2000, [(1965, 0.0)], 10) == -5
    assert elo.rounded_change(2000, [(1965, 0.0)], 20) == -11
    assert elo.rounded_change(2000, [(2000, 0.5)], 40) == 0


@pytest.mark.parametrize(
    ("kwargs", "k"),
    [
        ({"rating": 1600, "games_before": 0, "reached_2400": False}, 40),
        ({"rating": 1600, "games_before": 29, "reached_2400": False}, 40),
        ({"rating": 1600, "games_before": 30, "reached_2400": False}, 20),
        ({"rating": 2250, "games_before": 80, "reached_2400": False, "junior": True}, 40),
        ({"rating": 2300, "games_before": 80, "reached_2400": False, "junior": True}, 20),
        ({"rating": 2399, "games_before": 80, "reached_2400": False}, 20),
        ({"rating": 2400, "games_before": 80, "reached_2400": True}, 10),
        ({"rating": 2350, "games_before": 80, "reached_2400": True}, 10),  # once 2400, always 10
        ({"rating": 1600, "games_before": 0, "reached_2400": False, "games_in_period": 18}, 38),  # 700 // 18
        ({"rating": 1600, "games_before": 40, "reached_2400": False, "games_in_period": 35}, 20),
        ({"rating": 1600, "games_before": 40, "reached_2400": False, "games_in_period": 36}, 19),
    ],
)
def test_k_factor(kwargs, k):
    assert elo.k_factor(**kwargs) == k


def test_an_unrated_players_first_rating_follows_8_2():
    # Opponents 1900 2000 2100 1800 2200 plus two hypothetical 1800s: Ra = 13600 / 7
    # = 1942.86; score 3 + 1 (the two draws) = 4 / 7 = 0.57 -> dp 50 -> 1993.
    results = [(1900, 1.0), (2000, 1.0), (2100, 0.0), (1800, 0.5), (2200, 0.5)]
    assert elo.initial_rating(results) == 1993
    # 5 / 5 against 2100s: Ra = 2014.3, p = 6 / 7 = 0.86 -> dp 309 -> 2323, capped at 2200.
    assert elo.initial_rating([(2100, 1.0)] * 5) == 2200
    # A zero score is disregarded: still unrated.
    assert elo.initial_rating([(2000, 0.0)] * 5) is None
    # A low score: 0.5 / 5 vs 1500s: Ra = 1585.7, p = 1.5 / 7 = 0.21 -> dp -230 -> 1356.
    assert elo.initial_rating([(1500, 0.5)] + [(1500, 0.0)] * 4) == 1356


# -- Glicko-2 -------------------------------------------------------------------------


def test_glickmans_worked_example():
    rating, rd, volatility = glicko2.rate(1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    # Glickman prints 1464.06 from mu' rounded to -0.2069; unrounded it is 1464.0507.
    assert rating == pytest.approx(1464.06, abs=0.01)
    assert rd == pytest.approx(151.52, abs=0.01)
    assert volatility == pytest.approx(0.05999, abs=1e-5)


def test_glicko2_tau_changes_the_volatility_and_an_idle_period_widens_rd():
    # Five losses to far weaker players: a surprise; a larger tau lets volatility move more.
    _, _, low = glicko2.rate(1500, 50, 0.06, [(1000, 50, 0)] * 5, tau=0.3)
    _, _, high = glicko2.rate(1500, 50, 0.06, [(1000, 50, 0)] * 5, tau=1.2)
    assert 0.06 < low < high
    rating, rd, vol = glicko2.rate(1500, 200, 0.06, [])
    assert (rating, vol) == (1500, 0.06) and rd == pytest.approx(200.0 + 0.0, abs=2) and rd > 200


# -- properties -----------------------------------------------------------------------

ratings = st.integers(min_value=1000, max_value=2800)
scores = st.sampled_from([0.0, 0.5, 1.0])
ks = st.sampled_from([10, 20, 40])


@given(ratings, ratings, ks)
def test_a_win_never_lowers_an_elo_rating(rating, opponent, k):
    assert elo.change(rating, [(opponent, 1.0)], k) >= 0
    assert elo.rounded_change(rating, [(opponent, 1.0)], k) >= 0
    assert elo.rounded_change(rating, [(opponent, 0.0)], k) <= 0


@given(st.integers(1000, 2649), st.integers(1000, 2649), scores, ks)
def test_with_equal_k_the_two_changes_of_a_game_sum_to_zero(a, b, score, k):
    assert elo.change(a, [(b, score)], k) + elo.change(b, [(a, 1 - score)], k) == pytest.approx(0, abs=1e-9)


@given(st.floats(800, 2800), st.floats(30, 350), st.floats(0.03, 0.09), st.floats(800, 2800), st.floats(30, 350))
def test_a_win_never_lowers_a_glicko2_rating(rating, rd, volatility, opponent, opponent_rd):
    after, _, _ = glicko2.rate(rating, rd, volatility, [(opponent, opponent_rd, 1.0)])
    assert after >= rating


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), scores), min_size=1, max_size=30))
def test_a_win_never_lowers_a_rating_in_the_period_engine(games):
    for system in (periods.ELO, periods.GLICKO2):
        states: dict = {}
        for number, (a, b, score) in enumerate(games):
            if a == b:
                continue
            entries = periods.rate_period(states, [(number, a, b, score)], system=system)
            for entry in entries:
                if entry.score == 1.0 and system == periods.GLICKO2:
                    assert entry.rating_after >= entry.rating_before
                if entry.score == 1.0 and entry.k is not None:  # established Elo
                    assert entry.rating_after >= entry.rating_before


def test_a_period_rates_everybody_with_the_ratings_from_before_it():
    states = {p: periods.PlayerState(periods.ELO, r, games=50, established=True) for p, r in
              (("a", 2000.0), ("b", 2000.0), ("c", 2000.0))}
    entries = periods.rate_period(states, [(1, "a", "b", 1.0), (2, "a", "c", 1.0)], system=periods.ELO)
    # Both of a's games use b's and c's 2000 and a's own 2000 (K 20): +10 +10.
    assert [e.opponent_rating for e in entries if e.player == "a"] == [2000.0, 2000.0]
    assert states["a"].rating == 2020.0 and states["b"].rating == 1990.0 and states["c"].rating == 1990.0
    # The same two games as live periods: the second uses a's new rating (2010 vs 2000: 0.51).
    live = {p: periods.PlayerState(periods.ELO, 2000.0, games=50, established=True) for p in "abc"}
    periods.rate_period(live, [(1, "a", "b", 1.0)], system=periods.ELO)
    periods.rate_period(live, [(2, "a", "c", 1.0)], system=periods.ELO)
    assert live["a"].rating == 2020.0 and live["c"].rating == 1990.0  # 20 x 0.49 = 9.8 -> 10


def test_a_new_elo_player_is_provisional_until_five_games_with_a_score():
    states: dict = {"rated": periods.PlayerState(periods.ELO, 2000.0, games=100, established=True)}
    seen = []
    for number in range(5):
        assert states.get("new") is None or states["new"].provisional
        entries = periods.rate_period(states, [(number, "new", "rated", 1.0 if number == 0 else 0.0)],
                                      system=periods.ELO)
        seen += [(e.opponent_rating, e.score) for e in entries if e.player == "new"]
        assert all(e.k is None for e in entries if e.player == "new")  # no K while unrated
    assert not states["new"].provisional
    # Its first rating is §8.2 over all five games, with the opponent's rating at each.
    assert states["new"].rating == elo.initial_rating(seen)
    assert 1700 < states["new"].rating < 1850  # 1 / 5 against about 2000


def test_zero_scores_leave_a_player_unrated():
    states: dict = {"rated": periods.PlayerState(periods.ELO, 2000.0, games=100, established=True)}
    for number in range(6):
        periods.rate_period(states, [(number, "new", "rated", 0.0)], system=periods.ELO)
    assert states["new"].provisional and states["new"].rating == 1800.0


@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), scores, st.booleans()), min_size=1, max_size=60))
def test_the_fast_one_game_elo_path_matches_the_general_period(games):
    fast: dict = {}
    general: dict = {}
    for number, (a, b, score, young) in enumerate(games):
        if a == b:
            continue
        junior = (lambda p: True) if young else (lambda p: False)
        one = periods.rate_period(fast, [(number, a, b, score)], system=periods.ELO, junior=junior)
        other = periods._rate_general(general, [(number, a, b, score)], system=periods.ELO, tau=0.5, junior=junior)
        assert one == other
    assert fast == general


@given(ratings, ratings, scores, ks)
def test_the_one_game_change_matches_the_period_change(rating, opponent, score, k):
    assert elo.rounded_game_change(rating, opponent, score, k) == elo.rounded_change(rating, [(opponent, score)], k)
    assert elo.expected_hundredths(rating, opponent) == elo._table_hundredths(
        min(abs(rating - opponent), 400) if rating < 2650 else abs(rating - opponent)
    ) * (1 if rating >= opponent else -1) + (0 if rating >= opponent else 100)


def test_k_times_the_games_of_a_tournament_period_stays_at_most_700():
    # An established player with 10 games so far (K 40) plays 20 games in one period:
    # 40 x 20 = 800 > 700, so K is 35; the opponents (50 games, one this period) keep 20.
    states: dict = {"p": periods.PlayerState(periods.ELO, 1900.0, games=10, established=True)}
    states |= {n: periods.PlayerState(periods.ELO, 1900.0, games=50, established=True) for n in range(20)}
    games = [(g, "p", g, 1.0) for g in range(20)]
    entries = periods.rate_period(states, games, system=periods.ELO)
    assert {e.k for e in entries if e.player == "p"} == {35}
    assert {e.k for e in entries if e.player != "p"} == {20}
    assert states["p"].rating == 1900 + elo.rounded_change(1900, [(1900, 1.0)] * 20, 35) == 1900 + 350
