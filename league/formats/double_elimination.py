"""Double elimination: a winners' bracket, a losers' bracket and a grand final.

A player is out after two losses. The winners' bracket is the knockout of
``single_elimination`` (byes to the top seeds). Losers of winners' round 1 play each
other in losers' round 1; then every winners' round drops its losers into the losers'
bracket against the survivors there. The drop-in order alternates so that players who
met already (or came through the same part of the bracket) do not meet again early:
losers of winners' round ``r`` drop in reversed order when ``r`` is even and with the
two halves swapped when ``r`` is odd (the usual published scheme).

The grand final is the winners' champion against the losers' champion. With
``grand_final="reset"`` (the default) a win by the losers' champion, who has lost once,
gives the winners' champion a first loss too, and a deciding reset match is played;
with ``"single"`` one grand final decides.
"""

from __future__ import annotations

from .bracket import Bracket, Match, Source
from .single_elimination import bracket_order, bracket_size

GRAND_FINALS = ("reset", "single")


def drop_order(losers: list[Source], winners_round: int) -> list[Source]:
    """The order in which winners' round ``winners_round`` losers meet the losers' bracket."""
    if len(losers) <= 1:
        return list(losers)
    if winners_round % 2 == 0:
        return list(reversed(losers))
    half = len(losers) // 2
    return losers[half:] + losers[:half]


class DoubleElimination:
    def __init__(self, n: int, grand_final: str = "reset") -> None:
        if grand_final not in GRAND_FINALS:
            raise ValueError(f"The grand final is one of {', '.join(GRAND_FINALS)}.")
        self.n = n
        self.size = bracket_size(n)
        self.rounds = self.size.bit_length() - 1
        b = self.bracket = Bracket()
        order = bracket_order(self.size)
        wb_rounds: list[list[Match]] = [
            [b.add("winners", 1, ("seed", x), ("seed", y)) for x, y in zip(order[::2], order[1::2])]
        ]
        for r in range(2, self.rounds + 1):
            prev = wb_rounds[-1]
            wb_rounds.append(
                [
                    b.add("winners", r, ("winner", x.id), ("winner", y.id))
                    for x, y in zip(prev[::2], prev[1::2])
                ]
            )
        self.winners_final = wb_rounds[-1][0]
        # Losers' bracket: survivors are Sources (a match's winner, or a dropped loser).
        first_losers: list[Source] = [("loser", m.id) for m in wb_rounds[0]]
        lb_round = 0
        if len(first_losers) >= 2:
            lb_round = 1
            survivors: list[Source] = [
                ("winner", b.add("losers", 1, x, y).id) for x, y in zip(first_losers[::2], first_losers[1::2])
            ]
        else:
            survivors = first_losers
        for r in range(2, self.rounds + 1):
            dropped = drop_order([("loser", m.id) for m in wb_rounds[r - 1]], r)
            lb_round += 1
            survivors = [("winner", b.add("losers", lb_round, s, d).id) for s, d in zip(survivors, dropped)]
            if len(survivors) >= 2:
                lb_round += 1
                survivors = [
                    ("winner", b.add("losers", lb_round, x, y).id)
                    for x, y in zip(survivors[::2], survivors[1::2])
                ]
        self.losers_rounds = lb_round
        self.grand_final = b.add("final", 1, ("winner", self.winners_final.id), survivors[0])
        self.reset: Match | None = None
        if grand_final == "reset":
            self.reset = b.add("reset", 2, ("winner", self.grand_final.id), ("loser", self.grand_final.id))
        b.start(n)

    @property
    def matches(self) -> list[Match]:
        return self.bracket.matches

    def playable(self) -> list[Match]:
        return self.bracket.playable()

    def record(self, match_id: int, winner: int) -> None:
        self.bracket.record(match_id, winner)
        gf = self.grand_final
        if match_id == gf.id and self.reset is not None and winner == self.winners_final.winner:
            # The winners' champion won: nobody else has lost twice yet only the other; no reset.
            self.reset.decided, self.reset.void, self.reset.walkover = True, True, True
            self.reset.winner, self.reset.loser = winner, gf.loser

    @property
    def champion(self) -> int | None:
        last = self.reset if self.reset is not None else self.grand_final
        return last.winner if last.decided else None

    @property
    def is_over(self) -> bool:
        return all(m.decided for m in self.matches)
