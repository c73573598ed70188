"""Tic Tac Two's rules as pure functions on already-parsed *steps*.

A step is a small tuple (see ``notation`` for the JSON moves players send):

    ("pick", action)          draft one special action
    ("void", i)               place a Void (Void variation, before play)
    ("write", i)              write your letter: ends your turn
    ("double", i)             Double: write one additional letter (the turn goes on)
    ("swap", a, b)            Swap the contents of two touching squares (a < b)
    ("shift", kind, n, d)     Shift row/column n one space; d = +1 right/down, -1 left/up
    ("dibs", i)               place your Dibs Space
    ("intersect", i)          place an Intersect Space
    ("wall", border)          place your Wall
    ("topple", border, i)     topple your Wall onto square i (erasing its letters)

``refusal`` says why a step is illegal (or None); ``play`` applies a legal step;
``legal_steps`` lists them all. Squares are indexes 0..15 here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from ...base import Outcome, Seat
from ...errors import RuleError
from .geometry import (
    ADJACENT_PAIRS,
    ALL_BORDERS,
    CELLS,
    LINES,
    NEIGHBOURS,
    SIZE,
    Border,
    border_cells,
    line_borders,
    line_cells,
)
from .state import EMPTY, INTERSECT, VOID, TicTacTwoState

Step = tuple[Any, ...]

LETTERS = ("X", "O")  # seat 0 places first and writes X; seat 1 writes O and drafts first
ACTIONS = ("double", "swap", "shift", "dibs", "intersect", "wall")
ACTION_NAMES = {
    "double": "Double",
    "swap": "Swap",
    "shift": "Shift",
    "dibs": "Dibs Space",
    "intersect": "Intersect Space",
    "wall": "Wall",
}
PICKS_EACH = 3
VOIDS_EACH = 1

WIN_BY = (
    Outcome(result="win", winner=0, reason="Player One (X) connected four in a row."),
    Outcome(result="win", winner=1, reason="Player Two (O) connected four in a row."),
)
BOTH_SCORE = Outcome(result="draw", reason="X and O both connected four in a row at the same moment: a draw.")
NO_ROOM = (
    Outcome(result="draw", reason="Player One (X) has nowhere left to write an X, so the game is a draw."),
    Outcome(result="draw", reason="Player Two (O) has nowhere left to write an O, so the game is a draw."),
)


# -- reading the state ------------------------------------------------------------------


def phase(state: TicTacTwoState) -> str:
    """The part of the game: "draft", "void" (placing Voids), "play" or "over"."""
    if state.result is not None:
        return "over"
    if len(state.held[0]) + len(state.held[1]) < 2 * PICKS_EACH:
        return "draft"
    if state.void and state.cells.count(VOID) < 2 * VOIDS_EACH:
        return "void"
    return "play"


def remaining_actions(state: TicTacTwoState, seat: Seat) -> list[str]:
    """The held actions not used yet (a multiset in the Meta variation), in pick order."""
    unused = Counter(state.held[seat])
    unused.subtract(state.spent[seat])
    left = []
    for action in state.held[seat]:
        if unused[action] > 0:
            unused[action] -= 1
            left.append(action)
    return left


def can_write(state: TicTacTwoState, seat: Seat, i: int) -> bool:
    """Whether ``seat`` may write its letter on square ``i`` now."""
    if state.dibs[i] == seat:
        return True  # overwriting your own Dibs Space
    cell = state.cells[i]
    if cell == EMPTY:
        return True
    return cell[0] == INTERSECT and LETTERS[seat] not in cell


def writable(state: TicTacTwoState, seat: Seat) -> list[int]:
    return [i for i in CELLS if can_write(state, seat, i)]


def walled(walls: tuple[tuple[Border, Seat], ...]) -> frozenset[Border]:
    return frozenset(border for border, _ in walls)


def complete_lines(cells: tuple[str, ...], walls: tuple[tuple[Border, Seat], ...], letter: str) -> list[int]:
    """Indexes into LINES of the unblocked lines whose four squares all hold ``letter``."""
    standing = walled(walls)
    found = []
    for n, (squares, blockers) in enumerate(LINES):
        if all(letter in cells[i] for i in squares) and not any(b in standing for b in blockers):
            found.append(n)
    return found


def judge(cells: tuple[str, ...], walls: tuple[tuple[Border, Seat], ...]) -> Outcome | None:
    """The outcome if someone has four in a row; both at once is a draw."""
    x = bool(complete_lines(cells, walls, "X"))
    o = bool(complete_lines(cells, walls, "O"))
    if x and o:
        return BOTH_SCORE
    if x:
        return WIN_BY[0]
    if o:
        return WIN_BY[1]
    return None


def erase_letters(cell: str) -> str:
    """A square after a toppled Wall falls on it: letters go, a Void or an Intersect
    indicator stays."""
    if cell in ("X", "O"):
        return EMPTY
    if cell[:1] == INTERSECT:
        return INTERSECT
    return cell


def with_letter(cell: str, letter: str) -> str:
    """``letter`` written on a square that can take it (empty, or an Intersect Space)."""
    if cell == EMPTY:
        return letter
    letters = "".join(x for x in LETTERS if x in cell or x == letter)
    return INTERSECT + letters


# -- legality ---------------------------------------------------------------------------


def refusal(state: TicTacTwoState, seat: Seat, step: Step) -> RuleError | None:
    """Why ``seat`` may not make ``step`` now, or None if it may.

    The caller has checked that the game runs and that ``seat`` is to move.
    """
    kind = step[0]
    now = phase(state)
    if kind == "pick":
        if now != "draft":
            return _wrong_phase(now)
        return _pick_refusal(state, seat, step[1])
    if kind == "void":
        if now != "void":
            return _wrong_phase(now)
        if state.cells[step[1]] == VOID:
            return RuleError(
                "void-taken", f"Square {step[1] + 1} already holds a Void; choose another square."
            )
        return None
    if now != "play":
        return _wrong_phase(now)
    if kind == "write":
        return _write_refusal(state, seat, step[1])
    if kind == "topple":
        return _topple_refusal(state, seat, step[1], step[2]) or _room_refusal(state, seat, step)
    # A special action.
    if state.turns[seat] == 0:
        return RuleError(
            "first-turn",
            "Your first turn is only a letter: special actions can be used from your second turn on.",
        )
    if state.acted:
        return RuleError(
            "one-action-per-turn", "You have already used a special action this turn; now write your letter."
        )
    if kind not in remaining_actions(state, seat):
        name = ACTION_NAMES[kind]
        if kind in state.held[seat]:
            return RuleError(
                "action-used", f"You have already used {name}; each special action is used only once."
            )
        return RuleError("action-not-held", f"You did not choose {name} as one of your special actions.")
    return _ACTION_CHECKS[kind](state, seat, step) or _room_refusal(state, seat, step)


def _wrong_phase(now: str) -> RuleError:
    what = {
        "draft": "The players are choosing their special actions now: pick one.",
        "void": "Each player places a Void before play: place yours on an empty square.",
        "play": "The game is being played: write your letter, or use a special action first.",
    }[now]
    return RuleError("wrong-phase", what)


def _pick_refusal(state: TicTacTwoState, seat: Seat, action: str) -> RuleError | None:
    if state.meta:
        return None  # Meta variation: anything, repeats included
    name = ACTION_NAMES[action]
    if action in state.held[seat]:
        return RuleError("action-already-held", f"You already chose {name}; you cannot pick it twice.")
    if action in state.held[1 - seat]:
        return RuleError("action-taken", f"Your opponent already chose {name}; pick another special action.")
    return None


def _write_refusal(state: TicTacTwoState, seat: Seat, i: int) -> RuleError | None:
    if can_write(state, seat, i):
        return None
    cell = state.cells[i]
    if cell == VOID:
        return RuleError("void-square", f"Square {i + 1} is a Void: no letter can be written there.")
    if cell[:1] == INTERSECT:
        return RuleError("square-taken", f"The Intersect Space on square {i + 1} already holds your letter.")
    return RuleError("square-taken", f"Square {i + 1} already holds a letter; write in an empty square.")


def _topple_refusal(state: TicTacTwoState, seat: Seat, border: Border, target: int) -> RuleError | None:
    owner = dict(state.walls).get(border)
    if owner is None:
        return RuleError("no-wall", f"There is no Wall on that side of square {target + 1}.")
    if owner != seat:
        return RuleError("not-your-wall", "Only the player who placed a Wall can topple it.")
    if state.turns[seat] == 0:
        return RuleError("first-turn", "Your first turn is only a letter.")
    return None


def _double_refusal(state: TicTacTwoState, seat: Seat, step: Step) -> RuleError | None:
    return _write_refusal(state, seat, step[1])


def _room_refusal(state: TicTacTwoState, seat: Seat, step: Step) -> RuleError | None:
    """A step before the letter must leave a way to write the letter: every turn ends
    with one ("You have to write an X/O on your turn no matter what")."""
    if step[0] != "double" and any(can_write(state, seat, i) for i in CELLS):
        return None  # only Double can take away room for the letter
    after = play(state, seat, step)
    if after.result is not None or can_finish(after, seat):
        return None
    return RuleError(
        "no-room",
        "That would leave you nowhere to write your letter this turn, and every turn must end with a letter.",
    )


def _swap_refusal(state: TicTacTwoState, seat: Seat, step: Step) -> RuleError | None:
    _, a, b = step
    if b not in NEIGHBOURS[a]:
        return RuleError(
            "not-adjacent", f"Squares {a + 1} and {b + 1} do not touch; Swap works on adjacent squares."
        )
    for i in (a, b):
        if state.dibs[i] is not None:
            return RuleError(
                "swap-dibs", f"Square {i + 1} is a Dibs Space awaiting its letter: it cannot be swapped."
            )
        if state.cells[i][:1] == INTERSECT:
            return RuleError(
                "swap-intersect",
                f"Square {i + 1} is an Intersect Space: it and its letters cannot be swapped.",
            )
    if state.cells[a] == state.cells[b]:
        what = {"": "two empty squares", "V": "two Voids"}.get(state.cells[a], f"two {state.cells[a]}s")
        return RuleError("swap-same", f"Swap cannot exchange {what}; it exchanges different things.")
    return None


def _shift_refusal(state: TicTacTwoState, seat: Seat, step: Step) -> RuleError | None:
    _, kind, n, _d = step
    for i in line_cells(kind, n):
        if state.dibs[i] is not None:
            return RuleError(
                "shift-dibs",
                f"This {kind} holds a Dibs Space awaiting its letter (square {i + 1}); it cannot be shifted.",
            )
    return None


def _dibs_refusal(state: TicTacTwoState, seat: Seat, step: Step) -> RuleError | None:
    i = step[1]
    if state.cells[i] == VOID:
        return RuleError("void-square", f"Square {i + 1} is a Void: no letter can ever be written there.")
    if state.dibs[i] is not None:
        return RuleError("dibs-taken", f"Square {i + 1} is already a Dibs Space.")
    return None


def _intersect_refusal(state: TicTacTwoState, seat: Seat, step: Step) -> RuleError | None:
    i = step[1]
    cell = state.cells[i]
    if cell == VOID:
        return RuleError(
            "void-square",
            f"Square {i + 1} is a Void; an Intersect Space goes on an empty square or a letter.",
        )
    if cell[:1] == INTERSECT:
        return RuleError("intersect-taken", f"Square {i + 1} is already an Intersect Space.")
    return None


def _wall_refusal(state: TicTacTwoState, seat: Seat, step: Step) -> RuleError | None:
    if step[1] in walled(state.walls):
        return RuleError("wall-taken", "There is already a Wall on that border.")
    return None


_ACTION_CHECKS = {
    "double": _double_refusal,
    "swap": _swap_refusal,
    "shift": _shift_refusal,
    "dibs": _dibs_refusal,
    "intersect": _intersect_refusal,
    "wall": _wall_refusal,
}


# -- applying a legal step --------------------------------------------------------------


#: The steps that end a turn: what comes after them starts the next ``recent``.
TURN_ENDS = frozenset({"write", "pick", "void"})


def play(state: TicTacTwoState, seat: Seat, step: Step) -> TicTacTwoState:
    """The state after the legal ``step`` of ``seat``."""
    if not state.recent or state.recent[-1][1][0] in TURN_ENDS:
        state = replace(state, recent=(), fallen=())  # a new turn: the last one is history
    after = _play(state, seat, step)
    return replace(after, recent=(*state.recent, (seat, step)))


def _letters_of(cell: str) -> str:
    return "".join(x for x in LETTERS if x in cell)


def _play(state: TicTacTwoState, seat: Seat, step: Step) -> TicTacTwoState:
    kind = step[0]
    if kind == "pick":
        held = _with(state.held, seat, (*state.held[seat], step[1]))
        return replace(state, held=held, to_move=_after_draft_pick(state, held))
    if kind == "void":
        cells = _set(state.cells, step[1], VOID)
        placed = cells.count(VOID)
        return replace(state, cells=cells, to_move=(placed % 2,))  # X places first, then O
    if kind == "write":
        return _end_turn(state, seat, *_write(state, seat, step[1]))
    if kind == "topple":
        border, target = step[1], step[2]
        walls = tuple(w for w in state.walls if w[0] != border)
        cells = state.cells
        erased = ""
        if state.dibs[target] is None:  # a pending Dibs Space is immune to toppling Walls
            erased = _letters_of(cells[target])
            cells = _set(cells, target, erase_letters(cells[target]))
        fallen = (*state.fallen, (border, seat, target, erased))
        return _after_step(replace(state, cells=cells, walls=walls, fallen=fallen))
    # A special action: it is spent and the turn goes on.
    spent = _with(state.spent, seat, (*state.spent[seat], kind))
    state = replace(state, spent=spent, acted=True)
    if kind == "double":
        cells, dibs = _write(state, seat, step[1])
        return _after_step(replace(state, cells=cells, dibs=dibs))
    if kind == "swap":
        _, a, b = step
        swapped = list(state.cells)
        swapped[a], swapped[b] = swapped[b], swapped[a]
        return _after_step(replace(state, cells=tuple(swapped)))
    if kind == "shift":
        return _after_step(_shift(state, step[1], step[2], step[3]))
    if kind == "dibs":
        return _after_step(replace(state, dibs=_set(state.dibs, step[1], seat)))
    if kind == "intersect":
        cell = state.cells[step[1]]
        return _after_step(replace(state, cells=_set(state.cells, step[1], INTERSECT + cell)))
    if kind == "wall":
        walls = tuple(sorted((*state.walls, (step[1], seat))))
        return _after_step(replace(state, walls=walls))
    raise AssertionError(step)  # pragma: no cover - parse() only makes the kinds above


def _after_draft_pick(
    state: TicTacTwoState, held: tuple[tuple[str, ...], tuple[str, ...]]
) -> tuple[Seat, ...]:
    if len(held[0]) + len(held[1]) < 2 * PICKS_EACH:
        return (1,) if len(held[1]) == len(held[0]) else (0,)  # O picks first, then they alternate
    return (0,)  # X places the first Void (Void variation) or writes the first letter


def _write(state: TicTacTwoState, seat: Seat, i: int) -> tuple[tuple[str, ...], tuple[Seat | None, ...]]:
    """Cells and Dibs after ``seat`` writes its letter on square ``i``."""
    letter = LETTERS[seat]
    if state.dibs[i] == seat:
        # Overwriting your Dibs Space: everything on the square (letters, an Intersect
        # indicator) is replaced by your letter, and the Dibs Space is used up.
        return _set(state.cells, i, letter), _set(state.dibs, i, None)
    return _set(state.cells, i, with_letter(state.cells[i], letter)), state.dibs


def _shift(state: TicTacTwoState, kind: str, n: int, d: int) -> TicTacTwoState:
    """Push row/column ``n`` one space (wrapping round), then topple the Walls it crossed."""
    squares = line_cells(kind, n)
    cells = list(state.cells)
    for k, i in enumerate(squares):
        cells[i] = state.cells[squares[(k - d) % SIZE]]
    crossed = set(line_borders(kind, n))
    walls = []
    fallen = list(state.fallen)
    for border, owner in state.walls:
        if border not in crossed:
            walls.append((border, owner))  # parallel to the shift: stays standing
            continue
        # Perpendicular: it stays put and falls the opposite way the Shift was pointed.
        before, after = border_cells(border)
        target = before if d == 1 else after
        erased = ""
        if target is not None:  # an edge Wall falling outward erases nothing
            erased = _letters_of(cells[target])
            cells[target] = erase_letters(cells[target])
        fallen.append((border, owner, target, erased))
    return replace(state, cells=tuple(cells), walls=tuple(walls), fallen=tuple(fallen))


def _after_step(state: TicTacTwoState) -> TicTacTwoState:
    """After a step that does not end the turn: the game may be over (four in a row)."""
    result = judge(state.cells, state.walls)
    if result is not None:
        return replace(state, result=result, to_move=())
    return state


def _end_turn(
    state: TicTacTwoState, seat: Seat, cells: tuple[str, ...], dibs: tuple[Seat | None, ...]
) -> TicTacTwoState:
    turns = _with(state.turns, seat, state.turns[seat] + 1)
    after = replace(state, cells=cells, dibs=dibs, turns=turns, acted=False, to_move=(1 - seat,))
    result = judge(cells, state.walls)
    if result is None and not can_finish(after, 1 - seat):
        result = NO_ROOM[1 - seat]
    if result is not None:
        return replace(after, result=result, to_move=())
    return after


def _set(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*values[:i], value, *values[i + 1 :])


def _with(pair: tuple[Any, Any], seat: Seat, value: Any) -> Any:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


# -- listing legal steps ----------------------------------------------------------------


def action_candidates(action: str) -> list[Step]:
    """Every syntactically possible use of ``action`` (legality not checked)."""
    if action in ("double", "dibs", "intersect"):
        return [(action, i) for i in CELLS]
    if action == "swap":
        return [("swap", a, b) for a, b in ADJACENT_PAIRS]
    if action == "shift":
        return [("shift", kind, n, d) for kind in ("row", "column") for n in range(SIZE) for d in (-1, 1)]
    return [("wall", border) for border in ALL_BORDERS]


def legal_action_steps(state: TicTacTwoState, seat: Seat) -> list[Step]:
    """The legal special actions and Wall topples of ``seat`` now (play phase)."""
    if state.turns[seat] == 0:
        return []
    candidates: list[Step] = []
    if not state.acted:
        for action in dict.fromkeys(remaining_actions(state, seat)):
            candidates.extend(
                s for s in action_candidates(action) if _ACTION_CHECKS[action](state, seat, s) is None
            )
    for border, owner in state.walls:
        if owner == seat:
            candidates.extend(("topple", border, i) for i in border_cells(border) if i is not None)
    return [s for s in candidates if _room_refusal(state, seat, s) is None]


def legal_steps(state: TicTacTwoState, seat: Seat) -> list[Step]:
    if state.result is not None or seat not in state.to_move:
        return []
    now = phase(state)
    if now == "draft":
        return [("pick", a) for a in ACTIONS if _pick_refusal(state, seat, a) is None]
    if now == "void":
        return [("void", i) for i in CELLS if state.cells[i] != VOID]
    return [("write", i) for i in writable(state, seat)] + legal_action_steps(state, seat)


def can_finish(state: TicTacTwoState, seat: Seat) -> bool:
    """Whether ``seat`` (to move, in play) can still end its turn by writing a letter,
    using its remaining special action and Wall topples to make room if need be."""
    # legal_action_steps keeps only the steps after which the letter can still be written.
    return any(can_write(state, seat, i) for i in CELLS) or bool(legal_action_steps(state, seat))
