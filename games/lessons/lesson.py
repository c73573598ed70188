"""What a guided lesson is: pure data, no Django (docs/lessons.md).

A lesson is a short first game on the real board against a scripted coach. It starts
from a set-up (house rules, a fixed seed where chance plays a part, and moves played for
both seats at creation), then asks the learner for one move per step. Each step says
what to do and why, checks the learner's move (a move off the script is refused with
the step's hint, so nobody gets lost), and names the coach's reply.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Move = dict[str, Any]


def same_move(a: Any, b: Any) -> bool:
    """Two moves are the same when their JSON is (key order and spacing aside)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@dataclass(frozen=True)
class Step:
    #: What the learner reads: what to do, and why, in plain words.
    instruction: str
    #: The move the script plays (the tests, the browser test) and, without ``accepts``,
    #: the only move the step takes.
    move: Move
    #: Said when the learner's move is not the step's.
    hint: str
    #: The coach's scripted moves after this step (none where the learner moves again, as
    #: in a Tic Tac Two turn of an action and a letter). Past the script the coach's AI
    #: plays, as it does where a scripted move is not legal.
    replies: tuple[Move, ...] = ()
    #: Whether a learner's move does the step, where more than one move would do.
    accepts: Callable[[Any], bool] | None = None

    def takes(self, move: Any) -> bool:
        if self.accepts is not None:
            try:
                return bool(self.accepts(move))
            except (TypeError, KeyError, ValueError, AttributeError):
                return False
        return same_move(move, self.move)


@dataclass(frozen=True)
class Lesson:
    slug: str
    variant: str
    title: str
    #: One line for the lessons page: what the lesson teaches.
    summary: str
    steps: tuple[Step, ...]
    #: Said when the last step is done.
    outro: str
    options: dict[str, Any] = field(default_factory=dict)
    #: The game's seed, fixed where chance plays a part (Nine-Square's dice, the draft's
    #: order) so that the script knows what comes; "" for a random one.
    seed: str = ""
    #: Moves played at creation, (seat, move) in order, to reach an instructive position.
    setup: tuple[tuple[int, Move], ...] = ()
    learner_seat: int = 0

    @property
    def coach_seat(self) -> int:
        return 1 - self.learner_seat

    @property
    def coach_moves(self) -> tuple[Move, ...]:
        """The coach's scripted moves after the set-up, in order."""
        return tuple(move for step in self.steps for move in step.replies)

    def coach_move(self, moves_made: int) -> Move | None:
        """The coach's scripted move once it has made ``moves_made`` moves since the set-up."""
        scripted = self.coach_moves
        return scripted[moves_made] if moves_made < len(scripted) else None
