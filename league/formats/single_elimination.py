"""Single elimination (knockout): seeding order, byes to the top seeds, a bracket.

``bracket_order(8)`` is ``[1, 8, 4, 5, 2, 7, 3, 6]``: the seeds in slot order, so the
top two seeds can meet only in the final, the top four only in the semi-finals, and
so on. ``first_round(n)`` pairs them for ``n`` entrants, the missing seeds (above
``n``) being byes; a bye always meets one of the top seeds, never another bye.
"""

from __future__ import annotations

from bisect import bisect_left

from .bracket import EMPTY, Bracket, Match, Places, Source


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


#: Placement matches: none; "third", a 3rd-4th match; "all", every place decided.
PLACEMENTS = ("none", "third", "all")


class SingleElimination:
    """A knockout bracket for ``n`` seeds, with placement matches and a consolation bracket
    as options.

    ``playable()`` lists the matches waiting for a result; ``record(match_id, winner)``
    advances the winner. Byes are walkovers, settled at once.

    Every main-bracket match has ``places`` at stake (the first round of 8: 1-8); its loser
    takes the lower half (5-8). With ``placements="all"`` the losers of each round play a
    knockout of their own for those places ("placement" matches, in the rounds after
    their loss: the 5-8 semi-finals in the round of the main semi-finals), recursively,
    so that every place is decided by the last main round; with ``"third"`` only the
    semi-finals' losers play (for 3-4). With ``consolation`` the players who lost their
    first played match (in round 1, or in round 2 after a bye) play a knockout of their
    own from round 2 for a consolation winner, no place. Fields under 5 have none (with 4,
    it would be a third-place match), and
    it does not go with ``"all"`` (round 1's losers play for places already).
    """

    def __init__(self, n: int, placements: str = "none", consolation: bool = False) -> None:
        if placements not in PLACEMENTS:
            raise ValueError(f"Placements are one of {', '.join(PLACEMENTS)}.")
        if consolation and placements == "all":
            raise ValueError("With every place played for, round 1's losers already play on: no consolation.")
        self.n = n
        self.size = bracket_size(n)
        self.rounds = self.size.bit_length() - 1
        self.placements = placements
        self.bracket = Bracket()
        order = bracket_order(self.size)
        self.final = self._knockout("winners", [("seed", seed) for seed in order], 1, 1, None)
        self.third_place: Match | None = next((m for m in self.matches if m.places == (3, 4)), None)
        self.consolation_final: Match | None = None
        if consolation and n >= 5:
            self.consolation_final = self._consolation()
        self.bracket.start(n)

    def _knockout(self, name: str, entrants: list[Source], first_round: int,
                  best: int | None, block: Places | None) -> Match:
        """A knockout of ``entrants`` (slot order) from ``first_round``, for places ``best``
        onwards (None: no places), with the placement matches its losers play; its final."""
        current, round_ = entrants, first_round
        while True:
            places = None if best is None else (best, best + len(current) - 1)
            made = [self.bracket.add(name, round_, a, b, places, block) for a, b in zip(current[::2], current[1::2])]
            if places is not None and len(made) > 1:
                lower = (best + len(made), places[1])  # type: ignore[operator]  # best is set with places
                if self.placements == "all" or (self.placements == "third" and lower == (3, 4)):
                    self._knockout("placement", [("loser", m.id) for m in made], round_ + 1, lower[0], block or lower)
            if len(made) == 1:
                return made[0]
            current, round_ = [("winner", m.id) for m in made], round_ + 1

    def _consolation(self) -> Match:
        """Round 1's losers, and a bye's holder who loses in round 2, in a knockout from round 2."""
        first = [m for m in self.matches if m.bracket == "winners" and m.round == 1]
        second = [m for m in self.matches if m.bracket == "winners" and m.round == 2]
        # A round-2 loser with a placement match of their own (the semi-finals' losers, with
        # a third-place match) is not also in the consolation: one match a round each.
        placed = {ref for m in self.matches if m.bracket == "placement" for kind, ref in m.sources}
        entrants: list[Source] = []
        for feeders, after in zip(zip(first[::2], first[1::2]), second, strict=True):
            played: list[Source] = [("loser", m.id) for m in feeders if m.sources[1][1] <= self.n]
            byes = 0 if after.id in placed else 2 - len(played)
            entrants += played + [("first-loss", after.id)] * min(byes, 1)
            entrants += [EMPTY] * (2 - len(played) - min(byes, 1))
        return self._knockout("consolation", entrants, 2, None, None)

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
    def consolation_winner(self) -> int | None:
        final = self.consolation_final
        return final.winner if final is not None and final.decided else None

    @property
    def is_over(self) -> bool:
        return all(m.decided for m in self.matches)

    def places(self) -> dict[int, int]:
        """Seed -> place so far: a loser takes the best place of the lower half at stake,
        players sharing a place when no later match split them (1, 2, 3, 3, 5, 5, 5, 5
        without placement matches); players still in share the best place left to them.
        With every place played for, a finished bracket gives 1..n."""
        best = dict.fromkeys(range(1, self.n + 1), 1)
        for match in self.matches:
            if match.decided and match.places is not None and match.loser is not None:
                low, high = match.places
                best[match.loser] = max(best[match.loser], low + (high - low + 1) // 2)
        ordered = sorted(best.values())
        return {seed: 1 + bisect_left(ordered, place) for seed, place in best.items()}
