"""A rating period for any number of players: the shared core of the live path
(league/ratings/services.py), tournaments (``rate_period``) and the full recompute.

Pure and deterministic: the same states and games in the same order give the same
floats, which is why the incremental and the recomputed ratings agree exactly.

Every player in a period is rated with the ratings everybody had before it (FIDE and
Glickman both define a period that way); a one-game period is a live rating.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Generic, NamedTuple, TypeVar

from . import elo, glicko2

ELO = "elo"
GLICKO2 = "glicko2"
#: Elo: an unrated player's first rating is set (§8.2) after this many games with a
#: score above zero; until then the rating shown is the §8.2 estimate, provisional.
ELO_INITIAL_GAMES = 5
#: Glicko-2: a rating is provisional while its deviation is above this.
GLICKO2_PROVISIONAL_RD = 110.0

#: The keys a caller gives its players and games (the stored ids; any hashable here).
P = TypeVar("P", bound=Hashable)
G = TypeVar("G", bound=Hashable)


@dataclass(slots=True)
class PlayerState:
    """One player's rating in one list and variant, as the period engine needs it."""

    system: str
    rating: float
    rd: float | None = None
    volatility: float | None = None
    games: int = 0
    established: bool = False
    reached_2400: bool = False
    initial_results: list[tuple[float, float]] = field(default_factory=list)

    @property
    def provisional(self) -> bool:
        if self.system == GLICKO2:
            return (self.rd or 0.0) > GLICKO2_PROVISIONAL_RD
        return not self.established


def new_state(system: str) -> PlayerState:
    """A player never rated in a list: Elo unrated at the hypothetical 1800, or
    Glicko-2's 1500 / 350 / 0.06."""
    if system == GLICKO2:
        return PlayerState(GLICKO2, glicko2.DEFAULT_RATING, glicko2.DEFAULT_RD, glicko2.DEFAULT_VOLATILITY)
    if system == ELO:
        return PlayerState(ELO, float(elo.HYPOTHETICAL_OPPONENT))
    raise ValueError(f"unknown rating system {system!r}")


class Entry(NamedTuple, Generic[P, G]):
    """One player's line for one game of a period (stored as a RatingChange). A tuple:
    the recompute makes two million of these."""

    player: P
    opponent: P
    game: G
    opponent_rating: float
    score: float
    k: int | None
    rating_before: float
    rating_after: float
    rd_before: float | None
    rd_after: float | None
    volatility_before: float | None
    volatility_after: float | None
    provisional: bool


def rate_period(
    states: dict[P, PlayerState],
    games: Iterable[tuple[G, P, P, float]],
    *,
    system: str,
    tau: float = 0.5,
    junior: Callable[[P], bool] = lambda player: False,
) -> list[Entry[P, G]]:
    """Rate ``games`` = (game, player_a, player_b, score_of_a) as one period.

    ``states`` maps players to their states; missing players get ``new_state``; the
    states are updated in place. ``junior(player)`` says whether the FIDE junior K
    applies. Returns one Entry per player per game, in game order.
    """
    games = list(games)
    if len(games) == 1 and system == ELO:
        return _elo_single_game(states, *games[0], junior=junior)
    return _rate_general(states, games, system=system, tau=tau, junior=junior)


def _rate_general(
    states: dict[P, PlayerState],
    games: list[tuple[G, P, P, float]],
    *,
    system: str,
    tau: float,
    junior: Callable[[P], bool],
) -> list[Entry[P, G]]:
    before: dict[P, tuple[float, float | None, float | None]] = {}
    for _, a, b, _ in games:
        for player in (a, b):
            state = states.get(player)
            if state is None:
                state = states[player] = new_state(system)
            before[player] = (state.rating, state.rd, state.volatility)
    # Each player's games of this period, against the opponents' pre-period ratings.
    mine: dict[P, list[tuple[G, P, float]]] = {}
    for game, a, b, score_a in games:
        mine.setdefault(a, []).append((game, b, score_a))
        mine.setdefault(b, []).append((game, a, 1.0 - score_a))
    ks: dict[P, int | None] = {}
    for player, played in mine.items():
        state = states[player]
        if system == GLICKO2:
            results = [(before[o][0], _glicko2_value(before[o][1]), s) for _, o, s in played]
            state.rating, state.rd, state.volatility = glicko2.rate(
                state.rating, _glicko2_value(state.rd), _glicko2_value(state.volatility), results, tau=tau
            )
            ks[player] = None
        else:
            ks[player] = _elo_period(state, [(before[o][0], s) for _, o, s in played], junior(player))
        state.games += 0 if system == ELO else len(played)
    entries: list[Entry[P, G]] = []
    for game, a, b, score_a in games:
        for player, opponent, score in ((a, b, score_a), (b, a, 1.0 - score_a)):
            state = states[player]
            rating, rd, volatility = before[player]
            entries.append(Entry(
                player, opponent, game, before[opponent][0], score, ks[player],
                rating, state.rating, rd, state.rd, volatility, state.volatility, state.provisional,
            ))
    return entries


def _glicko2_value(value: float | None) -> float:
    """A Glicko-2 rating's deviation or volatility: new_state and every stored Glicko-2
    rating have both. (Only a rating kept from Elo after its club's list switched to
    Glicko-2 lacks them: glicko2.rate could never rate it, a TypeError before this.)"""
    assert value is not None, "a Glicko-2 rating without its deviation or volatility"
    return value


def _elo_period(state: PlayerState, results: list[tuple[float, float]], junior: bool) -> int | None:
    """FIDE Elo for one player and period; returns the K used (None while unrated)."""
    n = len(results)
    if not state.established:
        state.initial_results.extend(results)
        state.games += n
        first = elo.initial_rating(state.initial_results)
        state.rating = float(first if first is not None else elo.HYPOTHETICAL_OPPONENT)
        if first is not None and state.games >= ELO_INITIAL_GAMES:
            state.established = True
            state.initial_results = []
        state.reached_2400 = state.reached_2400 or (state.established and state.rating >= 2400)
        return None
    k = elo.k_factor(
        rating=state.rating, games_before=state.games, reached_2400=state.reached_2400,
        junior=junior, games_in_period=n,
    )
    if n == 1:
        state.rating += elo.rounded_game_change(state.rating, results[0][0], results[0][1], k)
    else:
        state.rating += elo.rounded_change(state.rating, results, k)
    state.games += n
    state.reached_2400 = state.reached_2400 or state.rating >= 2400
    return k


def _elo_single_game(
    states: dict[P, PlayerState], game: G, a: P, b: P, score_a: float,
    *, junior: Callable[[P], bool],
) -> list[Entry[P, G]]:
    """The general period above for one Elo game, without its bookkeeping: the live
    path and the recompute run this millions of times. Same arithmetic, same results."""
    state_a = states.get(a)
    if state_a is None:
        state_a = states[a] = new_state(ELO)
    state_b = states.get(b)
    if state_b is None:
        state_b = states[b] = new_state(ELO)
    rating_a, rating_b = state_a.rating, state_b.rating
    k_a = _elo_period(state_a, [(rating_b, score_a)], junior(a))
    k_b = _elo_period(state_b, [(rating_a, 1.0 - score_a)], junior(b))
    return [
        Entry(a, b, game, rating_b, score_a, k_a, rating_a, state_a.rating, None, None, None, None,
              not state_a.established),
        Entry(b, a, game, rating_a, 1.0 - score_a, k_b, rating_b, state_b.rating, None, None, None, None,
              not state_b.established),
    ]
