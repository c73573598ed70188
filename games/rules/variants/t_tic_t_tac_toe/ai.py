"""AI for Official T-Tic-T-Tac-Toe: one-ply tactics, then a shallow two-ply search.

The strong player:

1. confirms its own pending move (it never makes a bwah on purpose);
2. wins at once when any move wins;
3. keeps only *safe* moves, after which the opponent has no winning reply (a
   placement, a snip or tear-down that opens their line, or a super);
4. orders the safe moves by a line-counting evaluation and searches the best few two
   plies deep (its move, every reply of the opponent), within a time budget.

``budget`` (seconds) bounds the two-ply search; ``width`` bounds how many of its own
moves it examines there. The defaults answer well within one second per move.
"""

from __future__ import annotations

import random
import time

from ...base import Move, Seat, State, Variant
from ...errors import RuleError
from . import geometry as geo
from .engine import apply_action, candidate_actions, legal_actions
from .notation import move_of
from .state import Action, TTTState

WIN = 100_000
#: Value of an open line holding 1 or 2 of a player's symbols and none of the other's.
LINE_WEIGHT = (0, 1, 8, 0)
SPECIAL_VALUE = 2
DEFAULT_BUDGET = 0.5
DEFAULT_WIDTH = 8
#: Hard stop for one move, in seconds (the platform wants answers within 1 s).
TIME_LIMIT = 0.8


def _sane_actions(state: TTTState, seat: Seat) -> list[Action]:
    """Legal actions without bwahs (placing the opponent's letter is only ever a mistake)."""
    theirs = state.symbols[1 - seat]
    return [a for a in legal_actions(state, seat) if not (a[0] == "place" and a[2] == theirs)]


def evaluate(state: TTTState, seat: Seat) -> int:
    """How good ``state`` looks for ``seat`` (higher is better)."""
    if state.outcome is not None:
        if state.outcome.winner is None:
            return 0
        return WIN if state.outcome.winner == seat else -WIN
    mine, theirs = state.symbols[seat], state.symbols[1 - seat]
    cells, blocked = state.cells, state.blocked
    score = 0
    my_threats: set[int] = set()
    their_threats: set[int] = set()
    for squares, conditions in geo.TRIPLES:
        if not geo.triple_open(conditions, blocked):
            continue
        m = o = 0
        empty = 0
        for s in squares:
            v = cells[s - 1]
            if v == mine:
                m += 1
            elif v == theirs:
                o += 1
            else:
                empty = s
        if o == 0:
            score += LINE_WEIGHT[m]
            if m == 2:
                my_threats.add(empty)
        elif m == 0:
            score -= LINE_WEIGHT[o]
            if o == 2:
                their_threats.add(empty)
    to_move_is_me = seat in state.to_move
    # A threat of the player to move wins next move; two threats are hard to stop.
    if to_move_is_me and my_threats:
        score += 500
    if not to_move_is_me and their_threats:
        score -= 500
    if len(my_threats) >= 2:
        score += 60
    if len(their_threats) >= 2:
        score -= 60
    score += SPECIAL_VALUE * (len(state.spent[1 - seat]) - len(state.spent[seat]))
    return score


def _opponent_can_win(state: TTTState, opponent: Seat) -> bool:
    """True when ``opponent`` (to move in ``state``) has a move that wins at once."""
    if state.outcome is not None or opponent not in state.to_move:
        return False
    letter = state.symbols[opponent]
    blocked = state.blocked
    if geo.threats(state.cells, blocked, letter):
        return True
    completing: set[int] | None = None
    for action in candidate_actions(state, opponent):
        kind = action[0]
        if kind == "super":
            if state.version == "1.0":
                continue  # a 1.0 super only gooshes: it never makes a line
            if completing is None:
                completing = geo.super_completions(state.cells, blocked, letter)
            if action[1] not in completing:
                continue
        elif kind not in ("snip", "tear-down"):
            continue
        try:
            after = apply_action(state, opponent, action)
        except RuleError:
            continue
        if after.pending is not None:
            after = apply_action(after, opponent, ("confirm",))
        if after.outcome is not None and after.outcome.winner == opponent:
            return True
    return False


def _reply_value(state: TTTState, seat: Seat, deadline: float) -> int | None:
    """The value for ``seat`` of ``state`` after the opponent's best reply (None: out of time)."""
    opponent = 1 - seat
    if state.outcome is not None or opponent not in state.to_move:
        return evaluate(state, seat)
    worst = WIN
    for reply in _sane_actions(state, opponent):
        if time.perf_counter() > deadline:
            return None  # a half-searched move is not comparable with the others
        after = apply_action(state, opponent, reply)
        value = evaluate(after, seat)
        if value < worst:
            worst = value
            if worst <= -WIN:
                break
    return worst


def strong_move(
    variant: Variant,
    state: State,
    seat: Seat,
    rng: random.Random,
    budget: float = DEFAULT_BUDGET,
    width: int = DEFAULT_WIDTH,
    time_limit: float = TIME_LIMIT,
) -> Move:
    """The strong player's move. ``budget``: seconds for the two-ply search (0: one ply
    only); ``time_limit``: a hard stop for the whole move, so it answers within a second."""
    assert isinstance(state, TTTState)
    start = time.perf_counter()
    hard_stop = start + time_limit
    if state.pending is not None:
        return {"action": "confirm"}
    actions = _sane_actions(state, seat)
    if not actions:  # only bwahs are left
        return variant.random_move(state, seat, rng)
    rng.shuffle(actions)  # equal moves are chosen at random
    scored: list[tuple[int, Action, TTTState]] = []
    fallback: list[tuple[int, Action]] = []
    for square, _ in geo.threats(state.cells, state.blocked, state.symbols[seat]):
        return {"action": "place", "square": square}  # a win in one placement
    for action in actions:
        after = apply_action(state, seat, action)
        if after.pending is not None:
            after = apply_action(after, seat, ("confirm",))
        if after.outcome is not None and after.outcome.winner == seat:
            return move_of(action)
        if scored and time.perf_counter() > hard_stop:
            break  # out of time: choose among the moves judged so far
        if after.outcome is not None or not _opponent_can_win(after, 1 - seat):
            scored.append((evaluate(after, seat), action, after))
        else:
            fallback.append((evaluate(after, seat), action))
    if not scored:  # every move loses to some reply: pick the best-looking one
        fallback.sort(key=lambda item: item[0], reverse=True)
        return move_of(fallback[0][1])
    scored.sort(key=lambda item: item[0], reverse=True)
    deadline = min(start + budget, hard_stop)
    best_value, best_action = scored[0][0], scored[0][1]
    if budget > 0 and width > 0:
        best_value = -WIN - 1
        for _, action, after in scored[:width]:
            if time.perf_counter() > deadline:
                break
            value = _reply_value(after, seat, deadline)
            if value is not None and value > best_value:
                best_value, best_action = value, action
    return move_of(best_action)


def casual_move(variant: Variant, state: State, seat: Seat, rng: random.Random) -> Move:
    """Plays like a person: takes a win it sees, blocks sometimes, otherwise plays loosely."""
    assert isinstance(state, TTTState)
    if state.pending is not None:
        return {"action": "confirm"}
    if rng.random() < 0.6:
        return strong_move(variant, state, seat, rng, budget=0.0, width=0)
    actions = _sane_actions(state, seat)
    if not actions:
        return variant.random_move(state, seat, rng)
    for action in actions:  # a win in one is never missed
        after = apply_action(state, seat, action)
        if after.pending is not None:
            after = apply_action(after, seat, ("confirm",))
        if after.outcome is not None and after.outcome.winner == seat:
            return move_of(action)
    return move_of(rng.choice(actions))
