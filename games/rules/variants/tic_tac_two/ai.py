"""AI players for Tic Tac Two.

``strong_move`` plans a whole turn (optionally a special action or a Wall topple,
then the letter), takes any turn that wins at once, and otherwise ranks the turns with
a line-counting score and keeps the best one after which the opponent cannot win on
their next turn (their special actions included). It then plays the plan's first
step; the rest of the plan is remembered, so the letter that follows an action costs
nothing. ``Budget`` bounds the work (time, how many turns are checked against the
opponent's replies, how many special actions are tried), so tests can run it cheaply.

``casual_move`` plays like a person: it takes a win it sees, blocks an obvious four,
and otherwise plays a light version of the strong plan or a random letter.

The AI reads the rules through this package's ``engine`` (the same functions the
variant uses) rather than through JSON moves: the search needs the speed.
"""

from __future__ import annotations

import random
import time
from collections import OrderedDict
from dataclasses import dataclass

from ...base import Move, Seat, Variant
from . import engine
from .engine import LETTERS, Step
from .geometry import LINES, Border
from .notation import to_move_dict
from .state import EMPTY, INTERSECT, TicTacTwoState


@dataclass(frozen=True)
class Budget:
    """How much the strong player may think per move."""

    #: Wall-clock seconds for one decision (checked between candidate turns).
    seconds: float = 0.5
    #: How many of the best-scored turns are checked against the opponent's replies.
    breadth: int = 40
    #: At most this many special-action steps are tried (a random sample); None = all.
    action_sample: int | None = None


DEFAULT_BUDGET = Budget()

#: Draft preference: Dibs (overwrite any square: turns an opponent's letter into yours),
#: Double (two letters in one turn), then the other ways to break into a line.
DRAFT_ORDER = ("dibs", "double", "intersect", "swap", "shift", "wall")

WIN = 1_000_000.0
#: Score of a live line holding n of a player's letters (n = 0..3).
LINE_WEIGHT = (0.0, 1.0, 4.0, 16.0)
#: A remaining special action is worth keeping unless using it gains more.
ACTION_VALUE = 3.0
#: The opponent moves next, so their lines weigh a little more than ours.
THEIR_WEIGHT = 1.3

# Plans chosen at the start of a turn: (state after the first step, seat) -> the next step.
_PLANS: OrderedDict[tuple[TicTacTwoState, Seat], Step] = OrderedDict()
_PLANS_KEPT = 256


def strong_move(
    variant: Variant, state: TicTacTwoState, seat: Seat, rng: random.Random, budget: Budget | None = None
) -> Move:
    return to_move_dict(_strong_step(state, seat, rng, budget or DEFAULT_BUDGET))


def casual_move(variant: Variant, state: TicTacTwoState, seat: Seat, rng: random.Random) -> Move:
    phase = engine.phase(state)
    steps = engine.legal_steps(state, seat)
    if phase != "play":
        return to_move_dict(rng.choice(steps))
    # A person sees a four in a row they can write, and one the opponent is about to write.
    writes = [s for s in steps if s[0] == "write"]
    for step in writes:
        result = engine.play(state, seat, step).result
        if result is not None and result.winner == seat:
            return to_move_dict(step)
    threats = _completing_cells(state.cells, state.dibs, state.walls, 1 - seat)
    blocks = [s for s in writes if s[1] in threats]
    if blocks and rng.random() < 0.8:
        return to_move_dict(rng.choice(blocks))
    if rng.random() < 0.6:
        return to_move_dict(_strong_step(state, seat, rng, Budget(seconds=0.2, breadth=2, action_sample=10)))
    return to_move_dict(rng.choice(writes or steps))


# -- the strong player ------------------------------------------------------------------


def _strong_step(state: TicTacTwoState, seat: Seat, rng: random.Random, budget: Budget) -> Step:
    phase = engine.phase(state)
    steps = engine.legal_steps(state, seat)
    if phase == "draft":
        picks = {s[1]: s for s in steps}
        return next(picks[a] for a in DRAFT_ORDER if a in picks)
    if phase == "void":
        return rng.choice(steps)
    planned = _PLANS.pop((state, seat), None)
    if planned is not None and planned in steps:
        return planned
    plan = _plan_turn(state, seat, steps, rng, budget)
    if len(plan) > 1:
        _PLANS[(engine.play(state, seat, plan[0]), seat)] = plan[1]
        while len(_PLANS) > _PLANS_KEPT:
            _PLANS.popitem(last=False)
    return plan[0]


def _plan_turn(
    state: TicTacTwoState, seat: Seat, steps: list[Step], rng: random.Random, budget: Budget
) -> tuple[Step, ...]:
    """The best (first step, [letter]) for ``seat`` from ``state``."""
    deadline = time.perf_counter() + budget.seconds
    writes = [s for s in steps if s[0] == "write"]
    others = [s for s in steps if s[0] != "write"]
    rng.shuffle(writes)
    rng.shuffle(others)
    if budget.action_sample is not None:
        others = others[: budget.action_sample]

    scored: list[tuple[float, tuple[Step, ...]]] = []
    for write in writes:
        score = _score_write(state, seat, write[1])
        if score >= WIN:
            return (write,)
        scored.append((score, (write,)))
    for first in others:
        if time.perf_counter() > deadline:
            break
        mid = engine.play(state, seat, first)
        if mid.result is not None:
            score = _result_score(mid, seat)
            if score >= WIN:
                return (first,)
            scored.append((score, (first,)))
            continue
        for i in engine.writable(mid, seat):
            score = _score_write(mid, seat, i)
            if score >= WIN:
                return (first, ("write", i))
            scored.append((score, (first, ("write", i))))

    if not scored:
        return (steps[0],)
    scored.sort(key=lambda item: -item[0])
    for checked, (score, plan) in enumerate(scored):
        if checked >= budget.breadth or (checked and time.perf_counter() > deadline):
            break
        if score <= -WIN:
            break  # every remaining plan loses at once
        after = state
        for step in plan:
            after = engine.play(after, seat, step)
        if after.result is not None or not _can_win_next_turn(after, 1 - seat):
            return plan
    return scored[0][1]


def _score_write(state: TicTacTwoState, seat: Seat, i: int) -> float:
    """The score of ``state`` after ``seat`` writes on square ``i`` (turn over)."""
    cells, dibs = engine._write(state, seat, i)
    result = engine.judge(cells, state.walls)
    if result is not None:
        return _outcome_value(result.winner, seat)
    return _evaluate(cells, dibs, state.walls, state, seat)


def _result_score(state: TicTacTwoState, seat: Seat) -> float:
    assert state.result is not None
    return _outcome_value(state.result.winner, seat)


def _outcome_value(winner: Seat | None, seat: Seat) -> float:
    if winner is None:
        return -50.0  # a draw: better than losing, worse than a fair game
    return WIN if winner == seat else -WIN


def _evaluate(
    cells: tuple[str, ...],
    dibs: tuple[Seat | None, ...],
    walls: tuple[tuple[Border, Seat], ...],
    state: TicTacTwoState,
    seat: Seat,
) -> float:
    """Live lines weighted by how full they are, ours minus theirs, plus held actions.

    A line is live for a player when each square holds their letter or could take it.
    A player still holding Dibs Space or Intersect Space can break into one square
    holding the other's plain letter, so such a line counts as live for them too.
    """
    standing = engine.walled(walls)
    total = 0.0
    for player, weight in ((seat, 1.0), (1 - seat, -THEIR_WEIGHT)):
        letter, other = LETTERS[player], LETTERS[1 - player]
        left = engine.remaining_actions(state, player)
        can_break = "dibs" in left or "intersect" in left
        for squares, blockers in LINES:
            if blockers and any(b in standing for b in blockers):
                continue
            count = closed = breakable = 0
            for i in squares:
                cell = cells[i]
                if letter in cell:
                    count += 1
                elif not (cell == EMPTY or cell[:1] == INTERSECT or dibs[i] == player):
                    closed += 1
                    breakable += cell == other and dibs[i] is None
            if closed == 0 or (can_break and closed == 1 and breakable == 1):
                total += weight * LINE_WEIGHT[min(count, 3)]
        total += weight * ACTION_VALUE * len(left)
    return total


def _completing_cells(
    cells: tuple[str, ...], dibs: tuple[Seat | None, ...], walls: tuple[tuple[Border, Seat], ...], seat: Seat
) -> set[int]:
    """Squares where one letter of ``seat`` would complete an unblocked four in a row."""
    standing = engine.walled(walls)
    letter = LETTERS[seat]
    found = set()
    for squares, blockers in LINES:
        if blockers and any(b in standing for b in blockers):
            continue
        missing = [i for i in squares if letter not in cells[i]]
        if len(missing) == 1:
            i = missing[0]
            cell = cells[i]
            if dibs[i] == seat or cell == EMPTY or cell[:1] == INTERSECT:
                found.add(i)
    return found


def _can_win_next_turn(state: TicTacTwoState, seat: Seat) -> bool:
    """Whether ``seat``, about to start its turn, can connect four this turn: with its
    letter alone, or after one special action or one Wall topple."""
    if _completing_cells(state.cells, state.dibs, state.walls, seat):
        return True
    for step in engine.legal_action_steps(state, seat):
        after = engine.play(state, seat, step)
        if after.result is not None:
            if after.result.winner == seat:
                return True
            continue
        if _completing_cells(after.cells, after.dibs, after.walls, seat):
            return True
    return False
