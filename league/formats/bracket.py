"""A bracket: matches whose two places are filled by seeds or by earlier matches' winners or losers.

Shared by single and double elimination, which both have the shape of ``Knockout``. A
place that can never be filled (a bye, or the loser of a match that was a walkover) is
``None``: a match with one empty place is a walkover for the other, decided at once
without being played; with two empty places it is void (its winner and loser are both
``None``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

#: ("seed", seed number) | ("winner", match id) | ("loser", match id) | ("first-loss", match id):
#: the loser of that match if it was the loser's first played match (they came through byes).
Source = tuple[str, int]
EMPTY: Source = ("empty", 0)
Places = tuple[int, int]  # the best and worst place a match's two players contend for


@dataclass
class Match:
    id: int
    bracket: str  # "winners", "losers", "final", "reset", "placement", "consolation"
    round: int
    sources: tuple[Source, Source]
    places: Places | None = None  # single elimination: the places at stake (its loser gets the lower half)
    block: Places | None = None  # a placement match: the places its placement bracket decides
    players: list[int | None] = field(default_factory=lambda: [None, None])
    ready: list[bool] = field(default_factory=lambda: [False, False])
    winner: int | None = None
    loser: int | None = None
    decided: bool = False
    walkover: bool = False  # decided without a game (a bye, or void)
    void: bool = False  # not needed (both places empty, or an unneeded reset)

    @property
    def playable(self) -> bool:
        """Both players known and the match still to be played."""
        return all(self.ready) and not self.decided


class Knockout(Protocol):
    """What single and double elimination share: seeds 1..n, matches played to a champion."""

    n: int

    @property
    def matches(self) -> list[Match]: ...

    def playable(self) -> list[Match]: ...

    def record(self, match_id: int, winner: int) -> None: ...

    @property
    def champion(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...


class Bracket:
    """Matches in creation order; results flow along the sources."""

    def __init__(self) -> None:
        self.matches: list[Match] = []
        self._consumers: dict[int, list[tuple[int, int]]] = {}

    def add(self, bracket: str, round_: int, a: Source, b: Source,
            places: Places | None = None, block: Places | None = None) -> Match:
        match = Match(len(self.matches), bracket, round_, (a, b), places, block)
        self.matches.append(match)
        for slot, (kind, ref) in enumerate((a, b)):
            if kind in ("winner", "loser", "first-loss"):
                self._consumers.setdefault(ref, []).append((match.id, slot))
        return match

    def start(self, seeds: int) -> None:
        """Fill the seed places (seeds above ``seeds`` are byes) and settle walkovers."""
        for match in self.matches:
            for slot, (kind, ref) in enumerate(match.sources):
                if kind == "seed":
                    self._fill(match, slot, ref if ref <= seeds else None)
                elif kind == "empty":
                    self._fill(match, slot, None)

    def playable(self) -> list[Match]:
        return [m for m in self.matches if m.playable]

    def record(self, match_id: int, winner: int) -> None:
        match = self.matches[match_id]
        if not match.playable:
            raise ValueError(f"Match {match_id} is not waiting for a result.")
        if winner not in match.players:
            raise ValueError(f"Seed {winner} does not play in match {match_id}.")
        loser = match.players[1] if match.players[0] == winner else match.players[0]
        self._decide(match, winner, loser)

    # -- internals -------------------------------------------------------------
    def _fill(self, match: Match, slot: int, player: int | None) -> None:
        match.players[slot] = player
        match.ready[slot] = True
        if all(match.ready) and not match.decided:
            a, b = match.players
            if a is None or b is None:
                match.walkover = True
                match.void = a is None and b is None
                self._decide(match, a if b is None else b, None)

    def _decide(self, match: Match, winner: int | None, loser: int | None) -> None:
        match.winner, match.loser, match.decided = winner, loser, True
        for consumer_id, slot in self._consumers.get(match.id, []):
            kind = self.matches[consumer_id].sources[slot][0]
            if kind == "first-loss":
                player = loser if loser is not None and self._first_played(match, loser) else None
            else:
                player = winner if kind == "winner" else loser
            self._fill(self.matches[consumer_id], slot, player)

    def _first_played(self, match: Match, player: int) -> bool:
        """Whether ``match`` is the first ``player`` played: every earlier one was a walkover."""
        kind, ref = match.sources[match.players.index(player)]
        if kind == "seed":
            return True
        feeder = self.matches[ref]
        return feeder.walkover and self._first_played(feeder, player)
