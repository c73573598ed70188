"""FIDE's Elo rating regulations (effective 1 January 2024, with the 400-point rule as
amended for players rated 2650 and above).

* ``expected(rating, opponent_rating)``: the expected score from FIDE table 8.1.2, a
  lookup on the rating difference, not the logistic curve. A difference above 400
  counts as 400 for a player rated below 2650; from 2650 the real difference is used.
* ``change(rating, results, k)``: the unrounded change, sum of K x (score - expected).
* ``rounded_change``: the same, rounded as FIDE rounds (to the nearest whole number,
  0.5 rounded up whether the change is positive or negative), in exact integer
  hundredths so no float error ever moves a .5 the wrong way.
* ``k_factor``: K from §8.3.3 (40 new player / junior under 2300, 20 under 2400, 10
  once a published rating reached 2400) and the cap K x games of the period <= 700.
* ``initial_rating``: §8.2 for an unrated player (two hypothetical 1800 opponents
  drawn, table 8.1.1, capped at 2200; a zero score is disregarded).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence

#: Table 8.1.2: the upper bound of each band of rating differences, and the expected
#: score (in hundredths) of the higher rated player for that band. Above 735: 100.
_BAND_TOPS: tuple[int, ...] = (
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145,
    153, 162, 170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315,
    328, 344, 357, 374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
)
#: Expected score in hundredths for each band above: 50, 51, ..., 99.
_BAND_SCORES: tuple[int, ...] = tuple(range(50, 100))

#: Table 8.1.1: percentage score p (hundredths, 50..100) -> rating difference dp.
_DP: tuple[int, ...] = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309,
    322, 336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)

#: Differences above this count as this much, for players rated below NO_CAP_FROM.
MAX_COUNTED_DIFFERENCE = 400
#: From this rating on the real difference is used (amendment to §8.3.1).
NO_CAP_FROM = 2650
#: The hypothetical opponents of an unrated player (§8.2) and the first rating's cap.
HYPOTHETICAL_OPPONENT = 1800
INITIAL_CAP = 2200
#: K x the games of a rating period never exceeds this (§8.3.3.1).
MAX_K_TIMES_GAMES = 700


def _table_hundredths(difference: int) -> int:
    """Expected score (hundredths) of the higher rated side for |difference|."""
    return 100 if difference > 735 else _BAND_SCORES[bisect.bisect_left(_BAND_TOPS, difference)]


#: The table unrolled: index = difference 0..736 (a list lookup is the hot path).
_BY_DIFFERENCE: tuple[int, ...] = tuple(_table_hundredths(d) for d in range(737))


def expected_hundredths(rating: float, opponent_rating: float) -> int:
    """The table's expected score for ``rating`` against ``opponent_rating``, x100.
    Ratings are whole numbers as published; others are rounded first."""
    difference = round(rating) - round(opponent_rating)
    higher = difference >= 0
    if not higher:
        difference = -difference
    if difference > MAX_COUNTED_DIFFERENCE and rating < NO_CAP_FROM:
        difference = MAX_COUNTED_DIFFERENCE
    high = _BY_DIFFERENCE[difference] if difference < 737 else 100
    return high if higher else 100 - high


def expected(rating: float, opponent_rating: float) -> float:
    """FIDE table 8.1.2's expected score (0.00 .. 1.00) for ``rating`` vs ``opponent_rating``."""
    return expected_hundredths(rating, opponent_rating) / 100


def _change_hundredths(rating: float, results: Iterable[tuple[float, float]], k: int) -> int:
    # score x 100 is whole for 0, 0.5 and 1, so K x (score - expected) is exact in hundredths.
    return sum(k * (round(score * 100) - expected_hundredths(rating, opponent)) for opponent, score in results)


def change(rating: float, results: Iterable[tuple[float, float]], k: int) -> float:
    """The unrounded change: sum of K x (score - expected) over (opponent_rating, score)."""
    return _change_hundredths(rating, results, k) / 100


def round_half_up(hundredths: int) -> int:
    """FIDE's rounding of a change given in hundredths: nearest whole, .5 up."""
    return (hundredths + 50) // 100


def rounded_change(rating: float, results: Iterable[tuple[float, float]], k: int) -> int:
    """The change as FIDE publishes it: the period's sum rounded, .5 rounded up."""
    return round_half_up(_change_hundredths(rating, results, k))


def rounded_game_change(rating: float, opponent_rating: float, score: float, k: int) -> int:
    """``rounded_change`` for a period of one game (the live path's hot loop)."""
    return (k * (round(score * 100) - expected_hundredths(rating, opponent_rating)) + 50) // 100


def k_factor(
    *,
    rating: float,
    games_before: int,
    reached_2400: bool,
    junior: bool = False,
    games_in_period: int = 1,
) -> int:
    """K for a player at the start of a rating period (§8.3.3).

    ``games_before``: rated games completed before this period (K is 40 until 30);
    ``reached_2400``: a published rating has ever reached 2400 (then 10 for good);
    ``junior``: up to the end of the year of the 18th birthday (40 while under 2300);
    ``games_in_period``: K is lowered so that K x games stays at most 700.
    """
    if reached_2400:
        k = 10
    elif games_before < 30 or (junior and rating < 2300):
        k = 40
    elif rating < 2400:
        k = 20
    else:
        k = 10
    if games_in_period > 0 and k * games_in_period > MAX_K_TIMES_GAMES:
        k = MAX_K_TIMES_GAMES // games_in_period
    return k


def dp_for(score_fraction: float) -> int:
    """Table 8.1.1: the rating difference dp for a percentage score (rounded to 0.01)."""
    p = round(score_fraction * 100)
    return _DP[p - 50] if p >= 50 else -_DP[50 - p]


def initial_rating(results: Sequence[tuple[float, float]]) -> int | None:
    """§8.2: an unrated player's first rating from (rated opponent's rating, score) pairs.

    Ra is the average of the opponents' ratings together with two hypothetical 1800
    opponents the player drew with; Ru = Ra + dp(p), rounded, at most 2200. A zero
    score is disregarded: None (still unrated).
    """
    if not results or sum(score for _, score in results) == 0:
        return None
    opponents = [opponent for opponent, _ in results] + [HYPOTHETICAL_OPPONENT, HYPOTHETICAL_OPPONENT]
    score = sum(score for _, score in results) + 1.0
    average = sum(opponents) / len(opponents)
    rating = average + dp_for(score / len(opponents))
    return min(INITIAL_CAP, int(rating + 0.5))
