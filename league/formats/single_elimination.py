"""Single elimination (knockout): seeding order, byes to the top seeds, a bracket.

``bracket_order(8)`` is ``[1, 8, 4, 5, 2, 7, 3, 6]``: the seeds in slot order, so the
top two seeds can meet only in the final, the top four only in the semi-finals, and
so on. ``first_round(n)`` pairs them for ``n`` entrants, the missing seeds (above
``n``) being byes; a bye always meets one of the top seeds, never another bye.
"""

from __future__ import annotations

from .bracket import Bracket, Match


def _is_power_of_two(size: int) -> bool:
    return size >= 1 and size & (size - 1) == 0


def bracket_size(n: int) -> int:
    """The smallest power of two holding ``n`` entrants."""
    if n < 2:
        raise ValueError("A knockout needs at least 2 entrants.")
    return 1 << (n - 1).bit_length()


def bracket_order(size: int) -> list[int]:
    """Seeds 1..size in slot order: each pair of slots holds seeds summing to size + 1."""
    if not _is_power_of_two(size):
        raise ValueError("A bracket's size is a power of two.")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def first_round(n: int) -> list[tuple[int, int | None]]:
    """First-round pairs in bracket order; ``None`` is a bye (it goes to the top seeds)."""
    order = bracket_order(bracket_size(n))
    return [(a, b if b <= n else None) for a, b in zip(order[::2], order[1::2])]


class SingleElimination:
    """A knockout bracket for ``n`` seeds, optionally with a third-place match.

    ``playable()`` lists the matches waiting for a result; ``record(match_id, winner)``
    advances the winner. Byes are walkovers, settled at once.
    """

    def __init__(self, n: int, third_place: bool = False) -> None:
        self.n = n
        self.size = bracket_size(n)
        self.rounds = self.size.bit_length() - 1
        self.bracket = Bracket()
        self.third_place: Match | None = None
        current = [
            self.bracket.add("winners", 1, ("seed", a), ("seed", b))
            for a, b in zip(bracket_order(self.size)[::2], bracket_order(self.size)[1::2])
        ]
        semis = current
        for r in range(2, self.rounds + 1):
            semis = current
            current = [
                self.bracket.add("winners", r, ("winner", x.id), ("winner", y.id))
                for x, y in zip(current[::2], current[1::2])
            ]
        self.final = current[0]
        if third_place and self.rounds >= 2:
            self.third_place = self.bracket.add(
                "third-place", self.rounds, ("loser", semis[0].id), ("loser", semis[1].id)
            )
        self.bracket.start(n)

    @property
    def matches(self) -> list[Match]:
        return self.bracket.matches

    def playable(self) -> list[Match]:
        return self.bracket.playable()

    def record(self, match_id: int, winner: int) -> None:
        self.bracket.record(match_id, winner)

    @property
    def champion(self) -> int | None:
        return self.final.winner if self.final.decided else None

    @property
    def is_over(self) -> bool:
        return all(m.decided for m in self.matches)
