"""league/ratings/explain.py: the words of a rating change from the engine's own numbers (pure)."""

from __future__ import annotations

import random

from league.ratings import elo, explain, periods
from league.ratings.explain import StoredChange


def test_an_established_change_shows_k_and_the_table_expected_score():
    # 1512 against 1580: a difference of 68 is table 8.1.2's band 62-68, 0.59 for the higher: 0.41 here.
    e = explain.established(rating_before=1512, rating_after=1536, opponent="Sam", opponent_rating=1580,
                            score=1.0, k=40)
    assert (e.kind, e.k, e.expected, e.delta) == (explain.ESTABLISHED, 40, 0.41, 24)
    assert e.text.startswith("Rating 1512 → 1536 (+24): K = 40, expected score 0.41 against Sam (1580), scored 1")
    assert "40 × (1 − 0.41) = +23.6" in e.text


def test_a_first_game_shows_the_fide_estimate_worked_out():
    # One win against 1580: opponents 1580, 1800, 1800 average 1726.7; 2 of 3 = 67%, dp 125: 1852.
    e = explain.provisional(rating_before=1800, rating_after=1852, results=[(1580, 1.0)], now_established=False)
    assert (e.kind, round(e.average or 0), e.percentage, e.dp, e.games_to_go) == (explain.PROVISIONAL, 1727, 67, 125, 4)
    assert e.rating_after == elo.initial_rating([(1580, 1.0)]) == 1852
    assert "1727 + 125 = 1852" in e.text and "two imaginary 1800 opponents" in e.text and "(4 more)" in e.text


def test_a_loss_below_the_estimate_reads_as_a_minus_and_a_zero_score_has_no_estimate():
    low = explain.provisional(rating_before=1800, rating_after=elo.initial_rating([(1800, 1.0), (1600, 0.0)]) or 0,
                              results=[(1800, 1.0), (1600, 0.0)], now_established=False)
    assert low.dp == 0 and "adds 0: " in low.text  # 2 of 4 = 50%
    none = explain.provisional(rating_before=1800, rating_after=1800, results=[(1700, 0.0)], now_established=False)
    assert none.average is None and "needs a score above zero" in none.text


def test_the_estimate_agrees_with_the_engine_on_random_histories():
    rng = random.Random(18)
    for _ in range(300):
        results = [(float(rng.randint(1200, 2300)), rng.choice((0.0, 0.5, 1.0))) for _ in range(rng.randint(1, 5))]
        first = elo.initial_rating(results)
        e = explain.provisional(rating_before=1800, rating_after=first or 1800, results=results,
                                now_established=False)
        if first is None:
            assert e.dp is None
        else:
            assert min(elo.INITIAL_CAP, int(e.average + e.dp + 0.5)) == first  # type: ignore[operator]


def _stored(entry, system="elo", period=None) -> StoredChange:
    return StoredChange(system, period or f"game-{entry.game}", "them", entry.opponent_rating, entry.score, entry.k,
                        entry.rating_before, entry.rating_after, entry.rd_before, entry.rd_after, entry.provisional)


def test_explain_history_follows_the_engine_through_the_first_rating_and_beyond():
    """Rate a history with the engine, then explain it from the stored numbers only."""
    states: dict[str, periods.PlayerState] = {}
    mine = []
    for game, (opponent, score) in enumerate([("b", 1.0), ("c", 0.5), ("b", 1.0), ("d", 0.0), ("c", 1.0),
                                             ("b", 1.0), ("d", 0.5)]):
        entries = periods.rate_period(states, [(game, "a", opponent, score)], system=periods.ELO)
        mine.append(next(e for e in entries if e.player == "a"))
    explained = explain.explain_history([_stored(e) for e in mine])
    assert [e.kind for e in explained] == ["provisional"] * 4 + ["first-rating", "established", "established"]
    assert [e.rating_after for e in explained] == [round(e.rating_after) for e in mine]
    for entry, e in zip(mine[5:], explained[5:], strict=True):
        assert e.k == entry.k == 40
        assert e.expected == elo.expected(entry.rating_before, entry.opponent_rating)
        assert round(entry.rating_before) + elo.rounded_game_change(
            entry.rating_before, entry.opponent_rating, entry.score, e.k) == e.rating_after
    assert "First rating, set from all 5 games together (3 won, 1 drawn, 1 lost), not from this win alone." in explained[4].text


def test_a_first_rating_below_the_start_after_a_win_says_it_is_every_games_not_the_wins():
    """A tester read "won against Kofi · 1800 → 1693 (−107)" as a win losing 107 points: four
    losses left no estimate (1800 stood in), the win made the first one, from all five games."""
    states: dict[str, periods.PlayerState] = {
        p: periods.PlayerState("elo", 1850.0, games=40, established=True) for p in "bcde"}
    mine = []
    for game, (opponent, score) in enumerate([("b", 0.0), ("c", 0.0), ("d", 0.0), ("e", 0.0), ("b", 1.0)]):
        entries = periods.rate_period(states, [(game, "a", opponent, score)], system=periods.ELO)
        mine.append(next(e for e in entries if e.player == "a"))
    last = explain.explain_history([_stored(e) for e in mine])[-1]
    assert last.kind == "first-rating" and last.rating_before == 1800 and last.rating_after < 1800
    assert last.why.startswith(
        "First rating, set from all 5 games together (1 won, 4 lost), not from this win alone. Until a first "
        "point there is nothing to estimate from, so the 1800 every new player starts at stood in. ")


def test_a_tournament_period_explains_each_game_and_the_sum():
    states = {p: periods.PlayerState("elo", 1600.0, games=40, established=True) for p in "abc"}
    entries = periods.rate_period(states, [(1, "a", "b", 1.0), (2, "a", "c", 0.5)], system=periods.ELO)
    mine = [_stored(e, period="t-1") for e in entries if e.player == "a"]
    first, second = explain.explain_history(mine, period_names={"t-1": "Autumn Cup"})
    assert "over Autumn Cup's 2 games" in first.text and "20 × (1 − 0.50) = +10.0" in first.text
    assert "20 × (0.5 − 0.50) = 0.0." in second.text and first.rating_after == second.rating_after == 1610


def test_glicko2_explains_the_deviation():
    e = explain.glicko(rating_before=1500, rating_after=1662, rd_before=350, rd_after=290, opponent="Sam",
                       opponent_rating=1500, score=1.0)
    assert e.text.startswith("Rating 1500 → 1662 (+162) ±350 → ±290: Glicko-2") and "above ±110" in e.text
