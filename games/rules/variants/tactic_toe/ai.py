"""Tactic-Toe AI players.

The plans are simultaneous, so any single "best" plan can be read and beaten; the
strong player therefore plays a *mixed* strategy. Each round is a matrix game:
rows are our candidate plans, columns the opponent's, and a cell is the value (for
us) of the position reached once both plans are resolved. We solve the matrix
approximately by fictitious play and draw our plan from the resulting mixture.

Cell values:
* round 3 (the last): exact (+1 we win, -1 they win, 0 tie or cat's game), over the
  squares that still matter (``relevant_squares``);
* round 2: a finished game is exact; otherwise the round-3 position is solved
  exactly when at most ``exact_up_to`` squares still matter (cached per process),
  else estimated by counting open lines (``line_score``);
* round 1: always the same game, solved over the 39 plan classes up to the grid's
  symmetries with round-2 positions valued by ``line_score``; the class drawn is
  turned by a random symmetry.

The opponent is modelled as a sound player who, with probability ``tremble``, writes
a uniformly random plan instead; ``estimated_tremble`` infers that probability from
the plans it has revealed (Bayes, kept between DEFAULT_TREMBLE and MAX_TREMBLE). So
against a sound opponent the play stays close to an equilibrium, and against a weak
one it leans towards punishing its mistakes while staying mixed.

The AI only looks at ``variant.view(state, seat)``: it never peeks at a plan the
opponent has already written.

Squares are handled as bits (square ``s`` is ``1 << (s - 1)``) for speed.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...base import Move, Seat, State, Variant
from ...errors import RuleError
from .plans import LINES, PLAN_LENGTH, Plan, legal_plans

BIT = [0] + [1 << (sq - 1) for sq in range(1, 10)]
LINE_MASKS = tuple(BIT[a] | BIT[b] | BIT[c] for a, b, c in LINES)
FULL = (1 << 9) - 1
#: WINS[mask] is True when the marks in ``mask`` hold three in a row.
WINS = tuple(any(mask & line == line for line in LINE_MASKS) for mask in range(1 << 9))

#: Defaults used in play: well under 1 s per move on a shared two-core machine.
DEFAULT_ITERATIONS = 600
DEFAULT_TIME_LIMIT = 0.7
#: How often the strong player assumes its opponent writes a random plan, at least...
DEFAULT_TREMBLE = 0.25
#: ... and at most, however weak the opponent's earlier plans looked.
MAX_TREMBLE = 0.98
#: Plans the solver gives less weight than this are treated as noise of the method.
MIN_WEIGHT = 0.02
#: ... or less than this share of the favourite plan's weight.
RELATIVE_MIN_WEIGHT = 0.1

BitPlan = tuple[int, ...]  # three square bits (or PASS)

# Round-3 values already solved, shared by every game in this process.
_ROUND3_CACHE: dict[int, float] = {}
_CACHE_LIMIT = 200_000


# -- rules on bits ----------------------------------------------------------------


def resolve(mine: int, theirs: int, my_plan: BitPlan, their_plan: BitPlan) -> tuple[int, int]:
    """The two players' marks after resolving a round (same rule as the engine)."""
    for a, b in zip(my_plan, their_plan):
        if a == b:
            continue  # same square: bounce if free, invalid if taken; nothing changes
        taken = mine | theirs
        if not taken & a:
            mine |= a
        if not taken & b:
            theirs |= b
    return mine, theirs


def result_value(mine: int, theirs: int) -> float | None:
    """+1 / -1 / 0 if the round ended the game on a line, else None."""
    won, lost = WINS[mine], WINS[theirs]
    if won or lost:
        return 0.0 if (won and lost) else (1.0 if won else -1.0)
    return None


def relevant_squares(mine: int, theirs: int) -> list[int]:
    """Empty squares on a line someone can still complete (the only ones worth writing).

    Writing any other square changes nothing that matters, and writing an empty
    square is never worse than wasting a move, so round-3 plans need only these.
    """
    taken = mine | theirs
    live = 0
    for line in LINE_MASKS:
        if not (line & mine and line & theirs):
            live |= line
    live &= FULL & ~taken
    return [bit for bit in BIT[1:] if live & bit]


#: A move that changes nothing (a square that no longer matters), as a bit plan entry.
PASS = 0


def round3_opponent_plans(squares: Sequence[int]) -> tuple[list[BitPlan], list[float]]:
    """Round-3 opponent plans over ``squares`` (bits) or PASS, with their chances
    under uniformly random play over all 729 plans (any other square is a PASS)."""
    choices = list(squares) + ([PASS] if len(squares) < 9 else [])
    chance = {bit: 1 / 9 for bit in squares}
    chance[PASS] = (9 - len(squares)) / 9
    plans = list(itertools.product(choices, repeat=PLAN_LENGTH))
    weights = [chance[a] * chance[b] * chance[c] for a, b, c in plans]
    return plans, weights


def line_score(mine: int, theirs: int) -> float:
    """A rough value in (-1, 1) of a position still to be played: count open lines."""
    score = 0.0
    empty = FULL & ~(mine | theirs)
    my_threats = their_threats = 0
    for line in LINE_MASKS:
        if not line & theirs:
            own = (line & mine).bit_count()
            if own == 2:
                my_threats |= line & empty
            else:
                score += 0.3 if own == 1 else 0.06
        if not line & mine:
            own = (line & theirs).bit_count()
            if own == 2:
                their_threats |= line & empty
            else:
                score -= 0.3 if own == 1 else 0.06
    # Several distinct threats are hard to block all at once.
    score += _threat_weight(my_threats.bit_count()) - _threat_weight(their_threats.bit_count())
    return math.tanh(0.8 * score)


def _threat_weight(count: int) -> float:
    return (0.0, 1.0, 1.8, 2.2, 2.4, 2.5, 2.5, 2.5, 2.5, 2.5)[count]


# -- matrix games -------------------------------------------------------------------


def solve_matrix(
    matrix: Sequence[Sequence[float]],
    iterations: int,
    rng: random.Random,
    deadline: float | None = None,
    tremble: float = 0.0,
    random_weights: Sequence[float] | None = None,
) -> tuple[list[float], float]:
    """Approximate equilibrium of a zero-sum matrix game (row player maximises).

    Fictitious play: each side repeatedly plays a best reply to the other's average
    so far (ties broken at random); the averages approach an equilibrium.

    ``tremble`` models a fallible opponent: with that probability the column player
    writes a uniformly random plan, otherwise it answers our mixture as well as it
    can. With ``tremble`` = 0 this is the plain equilibrium; a little tremble keeps
    the play safe against a good opponent while preferring, among safe plans, those
    that punish mistakes. ``random_weights`` are the chances of each column under
    that random play (default: all alike). Returns (our mixture, our expected value).
    """
    rows, cols = len(matrix), len(matrix[0])
    if rows == 1 and cols == 1:
        return [1.0], matrix[0][0]
    columns = [list(col) for col in zip(*matrix)]
    # What each of our plans earns against a uniformly random opponent.
    if random_weights is None:
        row_mean = [sum(row) / cols for row in matrix]
    else:
        row_mean = [sum(a * w for a, w in zip(row, random_weights)) for row in matrix]
    row_total = [0.0] * rows  # payoff of each row against the column player's history
    col_total = [0.0] * cols  # payoff (to the row player) of each column against our history
    row_count = [0] * rows
    col_count = [0] * cols
    i, j = rng.randrange(rows), rng.randrange(cols)
    done = 0
    for done in range(1, iterations + 1):
        row_count[i] += 1
        col_count[j] += 1
        col_total = [t + v for t, v in zip(col_total, matrix[i])]
        row_total = [t + v for t, v in zip(row_total, columns[j])]
        keep = (1.0 - tremble) / done
        row_score = [keep * t + tremble * m for t, m in zip(row_total, row_mean)]
        best = max(row_score)
        i = rng.choice([k for k, v in enumerate(row_score) if v >= best - 1e-9])
        worst = min(col_total)
        j = rng.choice([k for k, v in enumerate(col_total) if v <= worst + 1e-9])
        if deadline is not None and done % 32 == 0 and time.perf_counter() > deadline:
            break
    mixture = [c / done for c in row_count]
    # Our mixture against the opponent's (trembling) average: the value we expect.
    value = sum(
        x * ((1.0 - tremble) * sum(a * c for a, c in zip(row, col_count)) / done + tremble * mean)
        for x, row, mean in zip(mixture, matrix, row_mean)
        if x
    )
    return mixture, value


def sample_mixture(mixture: Sequence[float], rng: random.Random) -> int:
    """An index drawn from ``mixture``, ignoring the solver's stray low weights."""
    floor = max(MIN_WEIGHT, RELATIVE_MIN_WEIGHT * max(mixture))
    weights = [w if w >= floor else 0.0 for w in mixture]
    if sum(weights) <= 0:
        weights = list(mixture)
    return rng.choices(range(len(weights)), weights=weights)[0]


# -- values of positions ------------------------------------------------------------


def round3_value(mine: int, theirs: int, exact_up_to: int, tremble: float) -> float:
    """Value for us of a round-3 position (nobody has a line yet)."""
    key = (round(tremble * 1000) << 18) | (mine << 9) | theirs
    cached = _ROUND3_CACHE.get(key)
    if cached is not None:
        return cached
    squares = relevant_squares(mine, theirs)
    if not squares:
        value = 0.0
    elif len(squares) > exact_up_to:
        return line_score(mine, theirs)
    else:
        plans = list(itertools.product(squares, repeat=PLAN_LENGTH))
        others, weights = round3_opponent_plans(squares)
        matrix = [[_final_value(*resolve(mine, theirs, p, q)) for q in others] for p in plans]
        # A private generator keyed by the position: cached or not, the caller's
        # random stream is untouched, so a move depends only on the caller's rng.
        value = solve_matrix(matrix, 150, random.Random(key), None, tremble, weights)[1]
    if len(_ROUND3_CACHE) < _CACHE_LIMIT:
        _ROUND3_CACHE[key] = value
    return value


def _final_value(mine: int, theirs: int) -> float:
    value = result_value(mine, theirs)
    return 0.0 if value is None else value


# -- round 1: the same game every time, solved over symmetry classes ------------------

#: The eight symmetries of the grid, each as a map square -> square (index 0 unused).
_ROTATE = (0, 7, 4, 1, 8, 5, 2, 9, 6, 3)  # quarter turn clockwise
_MIRROR = (0, 3, 2, 1, 6, 5, 4, 9, 8, 7)  # left-right


def _symmetries() -> list[tuple[int, ...]]:
    maps = []
    current = tuple(range(10))
    for _ in range(4):
        maps.append(current)
        maps.append(tuple(_MIRROR[current[sq]] for sq in range(10)))
        current = tuple(_ROTATE[current[sq]] for sq in range(10))
    return maps


SYMMETRIES = _symmetries()
_ROUND1: dict[str, Any] = {}


def _round1_game() -> tuple[list[tuple[int, ...]], list[list[float]], list[float]]:
    """Round-1 plan classes (one representative each) and their payoff matrix.

    Both players are assumed to play symmetric strategies (a representative is turned
    by a random symmetry), so a cell averages the representative against every image
    of the opponent's representative. Also returns each class's share of the 312
    plans (its chance under random play). Computed once per process.
    """
    if not _ROUND1:
        classes: dict[tuple[int, ...], tuple[int, ...]] = {}
        for plan in legal_plans(1, ()):
            canonical = min(tuple(g[sq] for sq in plan) for g in SYMMETRIES)
            classes.setdefault(canonical, canonical)
        reps = sorted(classes)
        rep_bits = [tuple(BIT[sq] for sq in rep) for rep in reps]
        images = [[tuple(BIT[g[sq]] for sq in rep) for g in SYMMETRIES] for rep in reps]
        matrix = []
        for mine in rep_bits:
            row = []
            for their_images in images:
                total = 0.0
                for theirs in their_images:
                    after = resolve(0, 0, mine, theirs)
                    value = result_value(*after)
                    total += line_score(*after) if value is None else value
                row.append(total / len(their_images))
            matrix.append(row)
        total_plans = len(legal_plans(1, ()))
        shares = [len(set(images_of)) / total_plans for images_of in images]
        _ROUND1["reps"], _ROUND1["matrix"], _ROUND1["shares"] = reps, matrix, shares
    return _ROUND1["reps"], _ROUND1["matrix"], _ROUND1["shares"]


# -- the players ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Seen:
    """What our own view tells us, with marks as bits (ours / theirs)."""

    round: int
    mine: int
    theirs: int
    own_r1: tuple[int, ...] = ()
    their_r1: tuple[int, ...] = ()
    their_r2: tuple[int, ...] = ()
    #: The marks after round 1 (ours, theirs), when round 1 has been played.
    after_r1: tuple[int, int] = (0, 0)


def _read_view(variant: Variant, state: State, seat: Seat) -> _Seen:
    view = variant.view(state, seat)
    mine = theirs = 0
    for index, mark in enumerate(view["board"]):
        if mark == view["your_mark"]:
            mine |= 1 << index
        elif mark is not None:
            theirs |= 1 << index
    rounds = view["rounds"]
    if not rounds:
        return _Seen(view["round"], mine, theirs)
    own_r1, their_r1 = tuple(rounds[0]["plans"][seat]), tuple(rounds[0]["plans"][1 - seat])
    after_r1 = resolve(0, 0, tuple(BIT[sq] for sq in own_r1), tuple(BIT[sq] for sq in their_r1))
    their_r2 = tuple(rounds[1]["plans"][1 - seat]) if len(rounds) > 1 else ()
    return _Seen(view["round"], mine, theirs, own_r1, their_r1, their_r2, after_r1)


# -- how fallible is the opponent? ----------------------------------------------------------

_EQUILIBRIUM: dict[tuple[int, ...], float] = {}


def _equilibrium_plan_probability(plan: tuple[int, ...]) -> float:
    """How likely a sound player (the round-1 equilibrium) writes ``plan`` in round 1."""
    if not _EQUILIBRIUM:
        reps, matrix, _ = _round1_game()
        mixture, _ = solve_matrix(matrix, 3000, random.Random(0))
        for rep, weight in zip(reps, mixture):
            images = {tuple(g[sq] for sq in rep) for g in SYMMETRIES}
            for image in images:
                _EQUILIBRIUM[image] = weight / len(images)
    return _EQUILIBRIUM.get(tuple(plan), 0.0)


def estimated_tremble(seen: _Seen, base: float = DEFAULT_TREMBLE, most: float = MAX_TREMBLE) -> float:
    """How often the opponent seems to write a random plan, from its revealed plans.

    Bayes with even prior odds between "a sound player" and "a random player": a
    round-1 plan outside the equilibrium's support, or a round-2 plan wasting a move on
    a square already taken when free ones were allowed (never better, see
    ``relevant_squares``), points to a random player. Kept within [base, most], so
    the play stays mixed and safe against a good opponent.
    """
    odds = 1.0  # P(seen | random) / P(seen | sound)
    legal_r1 = len(legal_plans(1, ()))
    if seen.their_r1:
        sound = 0.95 * _equilibrium_plan_probability(seen.their_r1) + 0.05 / legal_r1
        odds *= (1.0 / legal_r1) / sound
    if seen.their_r2:
        ours_after, theirs_after = seen.after_r1
        free = [
            sq for sq in range(1, 10) if not (ours_after | theirs_after) & BIT[sq] and sq not in seen.their_r1
        ]
        if len(free) >= PLAN_LENGTH:
            clean_share = math.perm(len(free), PLAN_LENGTH) / len(legal_plans(2, seen.their_r1))
            clean = all(sq in free for sq in seen.their_r2)
            odds *= clean_share / 0.95 if clean else (1.0 - clean_share) / 0.05
    return min(most, max(base, odds / (1.0 + odds)))


def _candidate_plans(
    round_number: int, own_r1: tuple[int, ...], mine: int, theirs: int
) -> list[tuple[int, ...]]:
    """The plans worth considering (as squares) for a player in this round."""
    if round_number == 3:
        squares = [bit.bit_length() for bit in relevant_squares(mine, theirs)]
        if not squares:
            squares = [sq for sq in range(1, 10) if not (mine | theirs) & BIT[sq]] or [5]
        return list(itertools.product(squares, repeat=PLAN_LENGTH))
    return list(legal_plans(round_number, own_r1))


def strong_move(
    variant: Variant,
    state: State,
    seat: Seat,
    rng: random.Random,
    iterations: int = DEFAULT_ITERATIONS,
    exact_up_to: int = 3,
    time_limit: float = DEFAULT_TIME_LIMIT,
    tremble: float | None = None,
) -> Move:
    """A plan drawn from an approximate equilibrium of this round's matrix game.

    ``iterations`` (fictitious-play steps), ``exact_up_to`` (round-3 positions with at
    most this many live squares are solved exactly when valued from round 2) and
    ``time_limit`` (seconds, a safety stop for the solver) trade strength for speed.
    ``tremble`` fixes how often the opponent is assumed to err (None: estimated
    from its revealed plans, see ``estimated_tremble``).
    """
    started = time.perf_counter()
    deadline, exact_until = started + time_limit, started + time_limit / 2
    seen = _read_view(variant, state, seat)
    if tremble is None:
        tremble = estimated_tremble(seen)
    if seen.round == 1:
        reps, matrix, shares = _round1_game()
        mixture, _ = solve_matrix(matrix, iterations, rng, deadline, tremble, shares)
        turn = rng.choice(SYMMETRIES)
        return {"plan": [turn[sq] for sq in reps[sample_mixture(mixture, rng)]]}
    mine, theirs, round_number = seen.mine, seen.theirs, seen.round
    ours = _candidate_plans(round_number, seen.own_r1, mine, theirs)
    # Writing a taken square wastes a move, never better than a free one: drop such
    # plans from ours when enough free squares are allowed (not from theirs: a weak
    # opponent does write them, and the tremble model needs all their plans).
    clean = [plan for plan in ours if not any((mine | theirs) & BIT[sq] for sq in plan)]
    ours = clean or ours
    my_bits = [tuple(BIT[sq] for sq in plan) for plan in ours]
    random_weights: list[float] | None = None
    if round_number == 3:
        # A random opponent mostly writes squares that no longer matter: model those as passes.
        their_bits, random_weights = round3_opponent_plans(relevant_squares(mine, theirs))
    else:
        their_bits = [tuple(BIT[sq] for sq in plan) for plan in legal_plans(round_number, seen.their_r1)]
    leaf_tremble = round(tremble, 2)  # fewer distinct cache keys

    def cell(p: BitPlan, q: BitPlan) -> float:
        after_mine, after_theirs = resolve(mine, theirs, p, q)
        value = result_value(after_mine, after_theirs)
        if value is not None:
            return value
        if round_number == 3:
            return 0.0  # nobody has a line after round 3: a cat's game
        # Exact round-3 values cost time while the cache is cold: past half the time
        # limit, only the cheapest positions are solved exactly.
        exact = exact_up_to if time.perf_counter() < exact_until else min(exact_up_to, 2)
        return round3_value(after_mine, after_theirs, exact, leaf_tremble)

    matrix = [[cell(p, q) for q in their_bits] for p in my_bits]
    mixture, _ = solve_matrix(matrix, iterations, rng, deadline, tremble, random_weights)
    return {"plan": list(ours[sample_mixture(mixture, rng)])}


def sensible_plans(round_number: int, own_r1: tuple[int, ...], taken: int) -> list[Plan]:
    """The legal plans a person might write without thinking ahead: empty squares only
    (``taken``: the marked squares as bits), each once, as far as the empty squares
    allow (two left: one is written twice). All legal plans when none is such."""
    plans = legal_plans(round_number, own_r1)
    free = sum(1 for sq in range(1, 10) if not taken & BIT[sq])
    distinct = min(PLAN_LENGTH, free)
    sensible = [plan for plan in plans if not any(taken & BIT[sq] for sq in plan) and len(set(plan)) == distinct]
    return sensible or list(plans)


def casual_move(variant: Variant, state: State, seat: Seat, rng: random.Random) -> Move:
    """Plays like a person: usually a quick, sound plan, sometimes a careless one, drawn
    from the plans that are at least sensible (``sensible_plans``): any legal plan would
    write taken squares while empty ones remain, which reads as a broken player."""
    if seat not in state.to_move:
        raise RuleError("not-your-turn", "You have no move to make now.")
    if rng.random() < 0.65:
        return strong_move(variant, state, seat, rng, iterations=120, exact_up_to=1)
    seen = _read_view(variant, state, seat)
    return {"plan": list(rng.choice(sensible_plans(seen.round, seen.own_r1, seen.mine | seen.theirs)))}
