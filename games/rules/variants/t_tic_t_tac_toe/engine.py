"""T-Tic-T-Tac-Toe's rules on parsed actions: what an action does, which are legal, playing one.

Pure functions on :class:`TTTState` and actions (``notation.parse_move`` makes them from
JSON moves). The Variant class calls them for ``legal_moves`` and ``apply``; the AI
calls them directly (``legal_actions``, ``candidate_actions``, ``apply_action``) to skip
parsing in its searches. docs/rules/t-tic-t-tac-toe.md explains every rule cited.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from ...base import Outcome, Seat
from ...errors import RuleError
from . import geometry as geo
from .notation import WALLS, describe_action, move_of
from .state import (
    PROTECTION,
    REDRAW_REASONS,
    Action,
    Blockage,
    Checkpoint,
    Event,
    TTTState,
    blocked_mask,
)


@dataclass(frozen=True, slots=True)
class _Effect:
    """What a legal action does to the board, before the turn passes."""

    cells: tuple[str | None, ...]
    blockages: tuple[Blockage, ...]
    checkpoints: tuple[Checkpoint, ...]
    spent: tuple[tuple[str, ...], tuple[str, ...]]
    wire_cutters: int
    ronald_reagans: int
    event: Event


class _LastPrevent:
    """Rule 5.2.02's answer for the last (state, seat): legal_moves asks it once per super."""

    __slots__ = ("answer", "seat", "state")

    def __init__(self) -> None:
        self.state: TTTState | None = None
        self.seat: Seat | None = None
        self.answer = False


_last_prevent = _LastPrevent()


# -- what an action does --------------------------------------------------------------------


def _effect(state: TTTState, seat: Seat, action: Action, check_super_rule: bool = True) -> _Effect:
    """What ``action`` by ``seat`` does; RuleError when the rules refuse it."""
    kind = action[0]
    move_number = state.ply + 1
    mine, theirs = state.symbols[seat], state.symbols[1 - seat]
    if state.ply == 0 and kind != "place":
        # 3.1.03 / 3.2.02 / 3.x.06: the first player "can place their symbol"; 4.04, 4.05, 5.1.01(a).
        raise RuleError("first-move-is-a-symbol", "The first move of a game must place a symbol.")
    cells, blockages, checkpoints = state.cells, state.blockages, state.checkpoints
    spent, cutters, reagans = state.spent, state.wire_cutters, state.ronald_reagans
    text = describe_action(action)
    redraw: str | None = None
    gooshed: tuple[int, ...] = ()
    if kind == "place":
        square, letter = action[1], action[2] or mine
        if letter != mine and not state.bwahs:
            raise RuleError(
                "bwah-not-allowed", f"You play {mine}; placing {letter} (a bwah) is off in this game."
            )
        if cells[square - 1] is not None:
            raise RuleError("square-taken", f"Square {square} already holds {cells[square - 1]}.")
        cells = (*cells[: square - 1], letter, *cells[square:])
        text = f"{letter} on {square}" + (" (a bwah: the opponent's symbol)" if letter != mine else "")
        kind_name = "bwah" if letter != mine else "place"
    elif kind in ("curtain", "wall"):
        special = kind
        if special in spent[seat]:
            what = "Iron Curtain" if kind == "curtain" else "Berlin Wall"
            raise RuleError(f"{kind}-used", f"You have already used your {what} in this game.")
        mask = geo.LINE_MASK[action[1]] if kind == "curtain" else WALLS[action[1]]
        if not mask & ~state.blocked:
            raise RuleError("already-blocked", "Every segment of that blockage is already blocked.")
        blockages = (
            *blockages,
            Blockage(kind, action[1], seat, mask, move_number, move_number + PROTECTION),
        )
        spent = _spend(spent, seat, special)
        kind_name = kind
    elif kind == "super":
        if "super" in spent[seat]:
            raise RuleError("super-used", "You have already used your super in this game.")
        area = geo.super_range(action[1])
        gooshed = tuple(square for square in area if cells[square - 1] == theirs)
        new = list(cells)
        for square in area:
            if new[square - 1] == theirs:
                new[square - 1] = None  # gooshed (5.x.01(c)); friendly symbols untouched (d)
            elif new[square - 1] is None and state.version == "2.0":
                new[square - 1] = mine  # 5.2.01(g): empty squares get the player's symbol
        cells = tuple(new)
        winning = state.version == "2.0" and check_super_rule and geo.has_line(cells, state.blocked, mine)
        if winning and not _super_may_win(state, seat, action[1]):
            raise RuleError(
                "super-would-win",
                "A super cannot give you three in a row unless it directly blocks your opponent's win "
                "and nothing else can (rule 5.2.02).",
            )
        spent = _spend(spent, seat, "super")
        redraw = REDRAW_REASONS["super"]
        kind_name = "super"
    elif kind in ("snip", "tear-down", "checkpoint"):
        target = _find(blockages, action[1])
        if kind == "checkpoint":
            if "checkpoint" in spent[seat]:
                raise RuleError(
                    "checkpoint-used", "You have already used your Checkpoint Charlie in this game."
                )
            start = max(target.protected_until, move_number)
            ends = start + PROTECTION
            blockages = tuple(replace(b, protected_until=ends) if b is target else b for b in blockages)
            checkpoints = (*checkpoints, Checkpoint(seat, target.name, move_number, ends))
            spent = _spend(spent, seat, "checkpoint")
            text += f" (protected up to move {ends})"
            kind_name = "checkpoint"
        else:
            wanted = "curtain" if kind == "snip" else "wall"
            if target.kind != wanted:
                raise RuleError(
                    "wrong-tool",
                    "Wire Cutters snip Iron Curtains; Ronald Reagan tears down Berlin Walls.",
                )
            if move_number <= target.protected_until:
                raise RuleError(
                    "still-protected",
                    f"That blockage cannot be destroyed before move {target.protected_until + 1}.",
                )
            if kind == "snip":
                if cutters <= 0:  # pragma: no cover - 1,001 pairs never run out in a game
                    raise RuleError("no-wire-cutters", "All 1,001 pairs of Wire Cutters are used.")
                cutters -= 1
            elif reagans <= 0:  # pragma: no cover - 420 of them never run out in a game
                raise RuleError("no-ronald-reagans", "All 420 Ronald Reagans are used.")
            else:
                reagans -= 1
            blockages = tuple(b for b in blockages if b is not target)
            # Only destroying a blockage can open lines for both players at once.
            blocked = blocked_mask(blockages)
            if geo.has_line(cells, blocked, mine) and geo.has_line(cells, blocked, theirs):
                raise RuleError(
                    "both-would-win",
                    "That would give both players three in a row at once, which the rules forbid "
                    "(4.04(d), 4.05(f), 3.x.05).",
                )
            redraw = REDRAW_REASONS[kind]
            kind_name = kind
    else:
        raise RuleError("nothing-pending", "There is no pending move to confirm or take back.")
    event = Event(move_number, seat, kind_name, text, redraw, move_of(action), gooshed)
    return _Effect(cells, blockages, checkpoints, spent, cutters, reagans, event)


def _super_may_win(state: TTTState, seat: Seat, corner: int) -> bool:
    """Rule 5.2.02's exception: the winning super directly blocks a win nothing else prevents."""
    theirs = state.symbols[1 - seat]
    lines = geo.threats(state.cells, state.blocked, theirs)
    if not lines:
        return False  # no win of the opponent to block
    area = set(geo.super_range(corner))
    if not any(area & set(line) for _, line in lines):
        return False  # it does not *directly* block a threatened line
    return _nothing_else_prevents(state, seat)


def _nothing_else_prevents(state: TTTState, seat: Seat) -> bool:
    """True when every option but a winning super leaves the opponent a winning placement.

    The answer is the same for every super of one position, so the last one is kept.
    """
    if _last_prevent.state is state and _last_prevent.seat == seat:
        return _last_prevent.answer
    theirs, mine = state.symbols[1 - seat], state.symbols[seat]
    answer = True
    for action in _candidates(state, seat):
        if action[0] == "place" and action[2] not in (None, mine):
            continue  # a bwah is a mistake, not an option
        try:
            effect = _effect(state, seat, action, check_super_rule=False)
        except RuleError:
            continue
        blocked = blocked_mask(effect.blockages)
        if geo.has_line(effect.cells, blocked, mine):
            if action[0] == "super":
                continue  # a winning super is what is being judged, not an "other option"
            answer = False  # winning otherwise also prevents the opponent's win
            break
        if geo.has_line(effect.cells, blocked, theirs):
            continue  # uncovering the opponent's line hands them the win: no defence
        if not geo.threats(effect.cells, blocked, theirs):
            answer = False  # this other option stops every threat
            break
    _last_prevent.state, _last_prevent.seat, _last_prevent.answer = state, seat, answer
    return answer


def _candidates(state: TTTState, seat: Seat) -> Iterator[Action]:
    """Every action that might be legal, cheapest first (not yet checked)."""
    if state.pending is not None:
        yield ("confirm",)
        yield ("take-back",)
        return
    theirs = state.symbols[1 - seat]
    empty = [i + 1 for i, v in enumerate(state.cells) if v is None]
    for square in empty:
        yield ("place", square, None)
    if state.bwahs:
        for square in empty:
            yield ("place", square, theirs)
    if state.ply == 0:
        return
    spent = state.spent[seat]
    blocked = state.blocked
    if "curtain" not in spent:
        for line in geo.LINE_NAMES:
            if geo.LINE_MASK[line] & ~blocked:
                yield ("curtain", line)
    if "wall" not in spent:
        for name, mask in WALLS.items():
            if mask & ~blocked:
                yield ("wall", name)
    if "super" not in spent:
        for corner in geo.SUPER_CORNERS:
            yield ("super", corner)
    for blockage in state.blockages:
        if state.ply + 1 > blockage.protected_until:
            yield ("snip" if blockage.kind == "curtain" else "tear-down", blockage.name)
    if "checkpoint" not in spent:
        for blockage in state.blockages:
            yield ("checkpoint", blockage.name)


# -- which actions are legal ---------------------------------------------------------------


def iter_legal_actions(state: TTTState, seat: Seat) -> Iterator[Action]:
    """The legal actions of ``seat``, lazily (the first one found may be enough)."""
    if state.outcome is not None or seat not in state.to_move:
        return
    for action in _candidates(state, seat):
        if action[0] == "take-back":
            if state.take_backs[seat] < state.take_back_limit:
                yield action
            continue
        if action[0] in ("place", "curtain", "wall", "checkpoint", "confirm"):
            yield action  # the candidates list only these when they are legal
            continue
        try:
            _effect(state, seat, action)
        except RuleError:
            continue
        yield action


def candidate_actions(state: TTTState, seat: Seat) -> Iterator[Action]:
    """Actions that may be legal (unchecked); for the AI's quick scans."""
    if state.outcome is not None or seat not in state.to_move:
        return iter(())
    return _candidates(state, seat)


def legal_actions(state: TTTState, seat: Seat) -> list[Action]:
    """The legal moves of ``seat`` as parsed actions."""
    return list(iter_legal_actions(state, seat))


# -- playing an action ---------------------------------------------------------------------


def apply_action(state: TTTState, seat: Seat, action: Action) -> TTTState:
    """The state after ``seat`` plays ``action`` (parsed, its seat checked); RuleError if refused."""
    if state.pending is not None:
        if action[0] == "confirm":
            return _commit(state, seat, _effect(state, seat, state.pending))
        if action[0] == "take-back":
            if state.take_backs[seat] >= state.take_back_limit:
                raise RuleError("no-take-backs-left", "You have no take-backs left in this game.")
            used = list(state.take_backs)
            used[seat] += 1
            event = Event(
                state.ply, seat, "take-back", f"took back: {describe_action(state.pending)} (pen not lifted)"
            )
            return state._replace(
                pending=None, take_backs=(used[0], used[1]), history=(*state.history, event)
            )
        raise RuleError("move-pending", "Confirm or take back your pending move first.")
    if action[0] in ("confirm", "take-back"):
        raise RuleError("nothing-pending", "There is no pending move to confirm or take back.")
    effect = _effect(state, seat, action)
    if state.confirm_moves:
        return state._replace(pending=action)
    return _commit(state, seat, effect)


def _commit(state: TTTState, seat: Seat, effect: _Effect) -> TTTState:
    ply = state.ply + 1
    history = [*state.history, effect.event]
    checkpoints = []
    for checkpoint in effect.checkpoints:
        if ply >= checkpoint.ends_at:  # 4.06(b): gone after its two full turns
            text = f"the Checkpoint Charlie on {checkpoint.target} disappeared"
            history.append(Event(ply, None, "checkpoint-gone", text, REDRAW_REASONS["checkpoint-gone"]))
        else:
            checkpoints.append(checkpoint)
    after = state._replace(
        cells=effect.cells,
        ply=ply,
        blockages=effect.blockages,
        checkpoints=tuple(checkpoints),
        spent=effect.spent,
        wire_cutters=effect.wire_cutters,
        ronald_reagans=effect.ronald_reagans,
        pending=None,
        history=tuple(history),
    )
    blocked = after.blocked
    for who in (seat, 1 - seat):
        lines = geo.lines_of(after.cells, blocked, state.symbols[who])
        if lines:  # only one player can have a line: moves giving both are refused
            reason = f"{state.symbols[who]} has three in a row: {', '.join(map(str, lines[0]))}."
            outcome = Outcome(result="win", winner=who, reason=reason)
            return after._replace(to_move=(), outcome=outcome, winning_line=lines[0])
    following = after._replace(to_move=(1 - seat,))
    if next(iter_legal_actions(following, 1 - seat), None) is None:
        reason = f"{state.symbols[1 - seat]} has no legal move left and nobody has three in a row."
        return after._replace(to_move=(), outcome=Outcome(result="draw", reason=reason))
    return following


# -- small helpers ---------------------------------------------------------------------------


def _spend(
    spent: tuple[tuple[str, ...], tuple[str, ...]], seat: Seat, special: str
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    mine = tuple(sorted((*spent[seat], special)))
    return (mine, spent[1]) if seat == 0 else (spent[0], mine)


def _find(blockages: tuple[Blockage, ...], name: str) -> Blockage:
    for blockage in blockages:
        if blockage.name == name:
            return blockage
    raise RuleError("no-such-blockage", f"There is no standing blockage {name} on the board.")
