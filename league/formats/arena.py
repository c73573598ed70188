"""Arena: a fixed duration; players are paired again as soon as they are free.

Points, as on Lichess: a win is 2, a draw 1, a loss 0, all doubled while a player is
*on fire* -- after two or more wins in a row (the second win itself still counts 2;
the third and later wins count 4, a draw on fire 2). A draw or a loss ends the streak.
(Lichess's berserk and its no-points-for-quick-draws rule are not used.)

Pairing: free players are sorted by points (then by how long they have waited) and
paired neighbour to neighbour, avoiding their immediate last opponent when anyone else
is free; among the nearest three (by points) the one who best balances who moves first
is chosen, and the player who has moved first more often moves second. Nobody is paired once the time is up; games already running still count.
Time is passed in (seconds), so the class is pure and testable.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from .explain import Reason

WIN, DRAW, LOSS = 2, 1, 0
#: How many of the nearest free players in points may be chosen among to balance who
#: moves first (the first of them is the nearest one who is not a rematch).
BALANCE_WINDOW = 3


def _first_moves_over(p: ArenaPlayer) -> int:
    """Games moved first minus games moved second (0 when balanced)."""
    return 2 * p.firsts - p.games


@dataclass
class ArenaPlayer:
    id: Hashable
    points: int = 0
    streak: int = 0  # consecutive wins
    last_opponent: Hashable | None = None
    firsts: int = 0  # games moving first, to balance who starts
    games: int = 0
    results: list[tuple[str, int]] = field(default_factory=list)  # ("win"|"draw"|"loss", points scored)

    @property
    def on_fire(self) -> bool:
        return self.streak >= 2


class Arena:
    def __init__(self, duration: float, start: float = 0.0) -> None:
        if duration <= 0:
            raise ValueError("An arena lasts some time.")
        self.start, self.end = start, start + duration
        self.players: dict[Hashable, ArenaPlayer] = {}
        self.waiting: dict[Hashable, float] = {}  # player -> since when
        self.playing: set[Hashable] = set()

    def is_open(self, now: float) -> bool:
        return self.start <= now < self.end

    def join(self, player: Hashable, now: float) -> None:
        if not self.is_open(now):
            raise ValueError("The arena is closed.")
        self.players.setdefault(player, ArenaPlayer(player))
        if player not in self.playing:
            self.waiting.setdefault(player, now)

    def leave(self, player: Hashable) -> None:
        self.waiting.pop(player, None)

    def pair(self, now: float) -> list[tuple[Hashable, Hashable]]:
        """Pair the free players; returns (first, second) pairs, first moving first."""
        return [(first, second) for first, second, _ in self.pair_explained(now)]

    def pair_explained(self, now: float) -> list[tuple[Hashable, Hashable, list[Reason]]]:
        """``pair``, each pair with the reasons it was made (explain.Reason)."""
        if not self.is_open(now):
            return []
        free = sorted(self.waiting, key=lambda p: (-self.players[p].points, self.waiting[p]))
        pairs: list[tuple[Hashable, Hashable, list[Reason]]] = []
        while len(free) >= 2:
            a = free.pop(0)
            pa = self.players[a]
            # The nearest in points who is not the last opponent, if there is one.
            nearest = next(
                (
                    i
                    for i, b in enumerate(free)
                    if b != pa.last_opponent and self.players[b].last_opponent != a
                ),
                None,
            )
            pick = self._balancing_pick(pa, free, 0 if nearest is None else nearest)
            skipped = pa.last_opponent if pa.last_opponent in free[:pick] else None
            b = free.pop(pick)
            pb = self.players[b]
            pairing_reason = Reason("arena", (a, b) + ((skipped,) if skipped is not None else ()), {
                "points": [pa.points, pb.points], "balanced": pick != (nearest or 0),
                "rematch": b == pa.last_opponent or pb.last_opponent == a, "skipped": skipped is not None})
            first, second = (a, b) if _first_moves_over(pa) <= _first_moves_over(pb) else (b, a)
            pf, ps = self.players[first], self.players[second]
            first_move = Reason("arena-first-move", (first, second),
                                {"firsts": [pf.firsts, ps.firsts], "games": [pf.games, ps.games]})
            pairs.append((first, second, [pairing_reason, first_move]))
        for first, second, _ in pairs:
            for p in (first, second):
                del self.waiting[p]
                self.playing.add(p)
            self.players[first].firsts += 1
        return pairs

    def _balancing_pick(self, pa: ArenaPlayer, free: list[Hashable], nearest: int) -> int:
        """Among the nearest few in points (never a rematch the nearest avoided), the one
        whose first moves best offset ``pa``'s: greedy allocation alone lets two players
        who both moved first too often meet again and again, and the drift grows."""
        def fits(i: int) -> bool:
            b = free[i]
            return i == nearest or (b != pa.last_opponent and self.players[b].last_opponent != pa.id)

        window = [i for i in range(nearest, min(nearest + BALANCE_WINDOW, len(free))) if fits(i)]

        def worst_after(i: int) -> int:
            mine, theirs = _first_moves_over(pa), _first_moves_over(self.players[free[i]])
            # The one further over moves second: each side moves by one towards or away from 0.
            if mine <= theirs:
                return max(abs(mine + 1), abs(theirs - 1))
            return max(abs(mine - 1), abs(theirs + 1))

        return min(window, key=lambda i: (worst_after(i), i))

    def finish(self, first: Hashable, second: Hashable, winner: Hashable | None, now: float) -> None:
        """Record a finished game (``winner`` None: a draw); both players are free again."""
        if first not in self.playing or second not in self.playing:
            raise ValueError("Those players are not playing.")
        for me, other in ((first, second), (second, first)):
            p = self.players[me]
            kind = "draw" if winner is None else ("win" if winner == me else "loss")
            base = {"win": WIN, "draw": DRAW, "loss": LOSS}[kind]
            scored = base * 2 if p.on_fire else base
            p.points += scored
            p.streak = p.streak + 1 if kind == "win" else 0
            p.last_opponent = other
            p.games += 1
            p.results.append((kind, scored))
            self.playing.discard(me)
            if now < self.end:
                self.waiting[me] = now

    def standings(self) -> list[ArenaPlayer]:
        return sorted(self.players.values(), key=lambda p: (-p.points, -p.games, str(p.id)))
