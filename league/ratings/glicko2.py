"""Glickman's Glicko-2 ("Example of the Glicko-2 system", 2012), step by step.

``rate(rating, rd, volatility, results, tau=0.5)`` returns the player's (rating, rd,
volatility) after one rating period; ``results`` are (opponent_rating,
opponent_rd, score) with score 1, 0.5 or 0. The new volatility is found with the
Illinois variant of regula falsi (step 5), to a tolerance of 1e-6. A period with no
games only widens the deviation (step 6 alone).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

#: The conversion constant between the Glicko and the Glicko-2 scale.
SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
TOLERANCE = 1e-6


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)
    delta2, phi2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > TOLERANCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(
    rating: float,
    rd: float,
    volatility: float,
    results: Iterable[tuple[float, float, float]],
    tau: float = 0.5,
) -> tuple[float, float, float]:
    """One Glicko-2 rating period for one player; returns (rating, rd, volatility)."""
    mu = (rating - DEFAULT_RATING) / SCALE
    phi = rd / SCALE
    games = [((r - DEFAULT_RATING) / SCALE, _g(d / SCALE), s) for r, d, s in results]
    if not games:
        return rating, SCALE * math.sqrt(phi * phi + volatility * volatility), volatility
    v_inverse = 0.0
    improvement = 0.0
    for mu_j, g_j, score in games:
        e = 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))
        v_inverse += g_j * g_j * e * (1.0 - e)
        improvement += g_j * (score - e)
    v = 1.0 / v_inverse
    delta = v * improvement
    sigma = _new_volatility(volatility, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return SCALE * new_mu + DEFAULT_RATING, SCALE * new_phi, sigma
