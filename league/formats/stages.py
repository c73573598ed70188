"""Multi-stage events, the pure parts: round robin groups filled by a snake seeding, and
the seeds a knockout gives the players carried over from the stage before.

Players are anything hashable (user ids for the services); seeds are 1-based.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from typing import TypeVar

from .single_elimination import bracket_order, bracket_size

P = TypeVar("P", bound=Hashable)

#: Above this many players in one place (winners, runners-up...), the carry-over places
#: them greedily instead of trying every order.
EXACT_UP_TO = 8


def snake_group(seed: int, groups: int) -> int:
    """The group (1-based: 1 = A) of ``seed`` in a snake seeding over ``groups`` groups:
    A1 B1 C1 D1, then D2 C2 B2 A2, then A3 B3 ..."""
    if groups < 1 or seed < 1:
        raise ValueError("Seeds and the number of groups start at 1.")
    row, position = divmod(seed - 1, groups)
    return position + 1 if row % 2 == 0 else groups - position


def snake_groups(n: int, groups: int) -> list[list[int]]:
    """The seeds 1..n of each group, in seed order (the group's own seeds 1, 2, ...)."""
    members: list[list[int]] = [[] for _ in range(groups)]
    for seed in range(1, n + 1):
        members[snake_group(seed, groups) - 1].append(seed)
    return members


def group_letter(group: int) -> str:
    """1 -> "A", 2 -> "B", ... 27 -> "AA"."""
    letters = ""
    while group > 0:
        group, rest = divmod(group - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _meeting_round(slot_a: int, slot_b: int) -> int:
    """The knockout round (1 = the first) in which the players of two 0-based slots can meet."""
    return (slot_a ^ slot_b).bit_length()


def knockout_seeds(groups: Sequence[Sequence[P]]) -> list[P]:
    """The knockout's players in seed order, from each group's qualifiers in group rank
    order (``groups[g][0]`` won group g).

    Group winners take the top seeds (in group order), then the runners-up, and so on;
    within each place the players are ordered so that two players of the same group meet
    as late as the bracket allows (the standard cross-over: a winner meets a runner-up of
    another group, and a group's winner and runner-up land in opposite halves).
    """
    size = bracket_size(sum(len(g) for g in groups))
    slot_of_seed = {seed: slot for slot, seed in enumerate(bracket_order(size))}
    group_of: dict[P, int] = {p: g for g, members in enumerate(groups) for p in members}
    seeded: list[P] = []
    for place in range(max((len(g) for g in groups), default=0)):
        tier = [members[place] for members in groups if len(members) > place]
        seeds = range(len(seeded) + 1, len(seeded) + len(tier) + 1)

        def clashes(order: Sequence[P], seeds: range = seeds) -> list[int]:
            """The rounds in which same-group players could meet, earliest first (the
            order of ``tier`` placed on ``seeds``); larger is better."""
            rounds = []
            placed = list(zip(range(1, len(seeded) + 1), seeded, strict=True))
            for seed, player in zip(seeds, order, strict=True):
                for other_seed, other in placed:
                    if group_of[other] == group_of[player]:
                        rounds.append(_meeting_round(slot_of_seed[seed], slot_of_seed[other_seed]))
                placed.append((seed, player))
            return sorted(rounds)

        if place == 0:
            best = list(tier)
        elif len(tier) <= EXACT_UP_TO:
            best = list(max(itertools.permutations(tier), key=lambda order: (clashes(tuple(order)), _keeps(tuple(order), tier))))
        else:
            best = []
            for k in range(len(tier)):
                rest = [p for p in tier if p not in best]
                best.append(max(rest, key=lambda p: (clashes([*best, p], range(seeds[0], seeds[0] + k + 1)),
                                                     -tier.index(p))))
        seeded.extend(best)
    return seeded


def _keeps(order: Sequence[P], tier: Sequence[P]) -> tuple[int, ...]:
    """Among equally good orders, prefer the one closest to the groups' order (deterministic)."""
    return tuple(-tier.index(p) for p in order)
