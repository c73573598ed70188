"""Round robin pairings from FIDE's Berger tables (Handbook C.05, Annex 1).

``berger(n)`` returns the rounds of a single round robin; a round is a list of
``(first, second)`` pairs of 1-based player numbers in board order, ``first`` moving
first (White in FIDE's tables). For an odd ``n`` the table for ``n + 1`` is used and
the player who would meet ``n + 1`` has the bye: the pair is ``(player, None)``.

The construction reproduces the published tables exactly: player ``m`` (``n`` or
``n + 1``, whichever is even) stays on board 1; in round ``r`` it meets ``p`` with
``p = (r + 1) / 2`` in odd rounds (``p`` moves first) and ``p = m / 2 + r / 2`` in even
rounds (``m`` moves first); board ``b`` (2, 3, ...) pairs ``p + (b - 1)`` (first)
with ``p - (b - 1)``, both counted round the circle 1 .. m - 1.
"""

from __future__ import annotations

from .stages import snake_groups

Pair = tuple[int, int | None]
Round = list[Pair]


def _wrap(k: int, modulus: int) -> int:
    """k on the circle 1 .. modulus."""
    return (k - 1) % modulus + 1


def round_count(n: int, cycles: int = 1) -> int:
    """How many rounds ``berger(n, cycles)`` has: n - 1 per cycle (n rounds for an odd n)."""
    if n < 2:
        raise ValueError("A round robin needs at least 2 players.")
    return (n + n % 2 - 1) * cycles


def berger(n: int, cycles: int = 1, *, swap_last_two: bool = False) -> list[Round]:
    """The Berger table for ``n`` players, ``cycles`` times (2: a double round robin).

    In a double round robin the second cycle repeats the first with the colours
    reversed. FIDE recommends swapping the last two rounds of the first cycle in a
    double round robin so nobody gets the same colour three times running; pass
    ``swap_last_two=True`` for that (the second cycle then mirrors the swapped cycle).
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise ValueError("A round robin needs at least 2 players.")
    if cycles not in (1, 2):
        raise ValueError("A round robin is played once or twice (cycles 1 or 2).")
    m = n + (n % 2)  # the table's size; m itself is the bye when n is odd
    half = m // 2
    rounds: list[Round] = []
    for r in range(1, m):
        if r % 2:
            p = (r + 1) // 2
            board1: tuple[int, int] = (p, m)
        else:
            p = half + r // 2
            board1 = (m, p)
        pairs = [board1]
        for b in range(2, half + 1):
            pairs.append((_wrap(p + b - 1, m - 1), _wrap(p - b + 1, m - 1)))
        rounds.append([_with_bye(pair, n) for pair in pairs])
    if swap_last_two and len(rounds) >= 2:
        rounds[-2], rounds[-1] = rounds[-1], rounds[-2]
    if cycles == 2:
        rounds = rounds + [[_reverse(pair) for pair in rnd] for rnd in rounds]
    return rounds


def double_berger(n: int, *, swap_last_two: bool = False) -> list[Round]:
    """A double round robin: the Berger table, then again with colours reversed."""
    return berger(n, cycles=2, swap_last_two=swap_last_two)


def _with_bye(pair: tuple[int, int], n: int) -> Pair:
    first, second = pair
    if first > n:  # the dummy player: its opponent has the bye
        return (second, None)
    if second > n:
        return (first, None)
    return (first, second)


def _reverse(pair: Pair) -> Pair:
    first, second = pair
    return pair if second is None else (second, first)


def grouped_round_count(n: int, groups: int, cycles: int = 1) -> int:
    """Rounds of a round robin in ``groups`` snake-seeded groups: the largest group's."""
    return max(round_count(len(members), cycles) for members in snake_groups(n, groups))


def grouped_round(n: int, groups: int, number: int, cycles: int = 1) -> list[tuple[int, int, int | None]]:
    """Round ``number`` of ``n`` seeds in ``groups`` snake-seeded groups, each a Berger
    table of its own, all groups playing their round ``number`` together: (group,
    first seed, second seed or None for a bye), group A's boards first. A smaller group
    whose table is over has no boards."""
    boards: list[tuple[int, int, int | None]] = []
    for group, members in enumerate(snake_groups(n, groups), start=1):
        table = berger(len(members), cycles)
        if number <= len(table):
            boards.extend((group, members[a - 1], None if b is None else members[b - 1]) for a, b in table[number - 1])
    return boards
