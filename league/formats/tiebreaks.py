"""Tie-breaks from FIDE's regulations (Handbook C.07), in an order the organiser sets.

Input: for each player, one ``RoundResult`` per round, in round order (every player
has the same number of rounds). ``played=False`` marks an unplayed round: a bye, a
forfeit (won or lost) or an absence; its ``opponent`` is then ignored. ``pending=True``
marks a game paired and not over yet (standings in the middle of a round): it counts in
nothing, as if that round had not come for the player, where an unplayed round would
count (a walkthrough found a player who had lost her only game given a Buchholz Cut-1
for her game in play).

Tie-breaks (names for ``standings(..., order=[...])``):

- ``"direct-encounter"``: points scored in the games among the players still tied,
  applied only when every one of them has played every other (else it breaks nothing).
- ``"wins"``: games won over the board (FIDE's WON; byes and forfeit wins not counted).
- ``"buchholz"``: the sum of the opponents' scores.
- ``"buchholz-cut1"``: Buchholz without the lowest contribution.
- ``"median-buchholz"``: Buchholz without the highest and the lowest.
- ``"sonneborn-berger"``: the sum of (opponent's score x points scored against them).

Unplayed rounds (``unplayed=`` argument):

- ``"2023"`` (default), the rules in force since July 2023 (C.07 art. 16): a player's
  own unplayed round counts as a game against a *dummy opponent* with the player's
  own score; when cutting (Cut-1, Median) those dummy contributions are cut first.
  Opponents' scores are their real scores.
- ``"virtual-opponent"``, the 2009-2022 rule: a virtual opponent who had the player's
  score before that round, got the opposite of the player's result in it, and drew
  every later round: Svon = SPR + (1 - SfPR) + 0.5 * (n - R).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

TIEBREAKS = ("direct-encounter", "wins", "buchholz", "buchholz-cut1", "median-buchholz", "sonneborn-berger")
#: Each tie-break's name in words, and what it counts in a few (the section form's choices).
TIEBREAK_NAMES = {
    "direct-encounter": "Direct encounter",
    "wins": "Wins",
    "buchholz": "Buchholz",
    "buchholz-cut1": "Buchholz cut 1",
    "median-buchholz": "Median Buchholz",
    "sonneborn-berger": "Sonneborn-Berger",
}
TIEBREAK_SHORT_HELP = {
    "direct-encounter": "points among the tied players",
    "wins": "games won over the board",
    "buchholz": "the opponents' scores added up",
    "buchholz-cut1": "Buchholz less the lowest opponent",
    "median-buchholz": "Buchholz less the highest and lowest",
    "sonneborn-berger": "opponents beaten, plus half those drawn",
}


def known_words() -> str:
    """The tie-breaks' names as the API takes them, each with its name in words."""
    return ", ".join(f"{name} ({TIEBREAK_NAMES[name]})" for name in TIEBREAKS)
UNPLAYED_RULES = ("2023", "virtual-opponent")


@dataclass(frozen=True)
class RoundResult:
    opponent: Hashable | None
    points: float  # 1 win, 0.5 draw, 0 loss (bye: the bye's value)
    played: bool = True
    pending: bool = False  # paired, not over: counted in nothing yet (played False, points 0)


@dataclass
class Standing:
    player: Hashable
    points: float
    tiebreaks: dict[str, float]
    rank: int  # 1-based; players tied on everything share a rank


Results = Mapping[Hashable, Sequence[RoundResult]]


def scores(results: Results) -> dict[Hashable, float]:
    return {p: sum(r.points for r in rounds) for p, rounds in results.items()}


def _contributions(
    player: Hashable, results: Results, score: Mapping[Hashable, float], unplayed: str
) -> list[tuple[float, bool]]:
    """(opponent score, from an unplayed round?) for each round of ``player`` that is over."""
    rounds = _over(results[player])
    n = len(rounds)
    out: list[tuple[float, bool]] = []
    before = 0.0
    for index, r in enumerate(rounds, start=1):
        if r.played and r.opponent is not None:
            out.append((score[r.opponent], False))
        elif unplayed == "2023":
            out.append((score[player], True))
        else:
            out.append((before + (1 - r.points) + 0.5 * (n - index), True))
        before += r.points
    return out


def _over(rounds: Sequence[RoundResult]) -> list[RoundResult]:
    """The rounds whose game is over (or was never played): not the pending ones."""
    return [r for r in rounds if not r.pending]


def _cut(values: list[tuple[float, bool]], lowest: int, highest: int) -> float:
    """Sum after removing ``lowest`` lowest (unplayed-round contributions first) and ``highest`` highest."""
    rest = sorted(values, key=lambda v: (not v[1], v[0]))  # unplayed first, then by value
    rest = rest[lowest:]
    rest = sorted(rest, key=lambda v: v[0])
    if highest:
        rest = rest[: len(rest) - highest]
    return sum(v for v, _ in rest)


def value(
    name: str,
    player: Hashable,
    results: Results,
    score: Mapping[Hashable, float],
    *,
    tied: set[Hashable] | None = None,
    unplayed: str = "2023",
    win: float = 1.0,
) -> float:
    """One tie-break's value for one player (``tied``: the group, for direct encounter)."""
    if unplayed not in UNPLAYED_RULES:
        raise ValueError(f"Unplayed rounds are handled by one of {', '.join(UNPLAYED_RULES)}.")
    rounds = results[player]
    if name == "wins":
        return float(sum(1 for r in rounds if r.played and r.points >= win))
    if name == "direct-encounter":
        group = tied or {player}
        met = {(p, r.opponent) for p in group for r in results[p] if r.played}
        if any((a, b) not in met for a in group for b in group if a != b):
            return 0.0
        return sum(r.points for r in rounds if r.played and r.opponent in group)
    contributions = _contributions(player, results, score, unplayed)
    if name == "buchholz":
        return sum(v for v, _ in contributions)
    if name == "buchholz-cut1":
        return _cut(contributions, 1, 0) if contributions else 0.0
    if name == "median-buchholz":
        return _cut(contributions, 1, 1) if len(contributions) >= 2 else 0.0
    if name == "sonneborn-berger":
        return sum(v * (r.points / win) for (v, _), r in zip(contributions, _over(rounds)))
    raise ValueError(f"Unknown tie-break {name!r}; known: {', '.join(TIEBREAKS)}.")


def standings(
    results: Results,
    order: Sequence[str] = ("buchholz-cut1", "buchholz", "sonneborn-berger"),
    *,
    unplayed: str = "2023",
    win: float = 1.0,
) -> list[Standing]:
    """Players by points, ties broken by ``order`` one tie-break after another (C.07 art. 4.2)."""
    for name in order:
        if name not in TIEBREAKS:
            raise ValueError(f"Unknown tie-break {name!r}; known: {', '.join(TIEBREAKS)}.")
    score = scores(results)
    shown: dict[Hashable, dict[str, float]] = {p: {} for p in results}
    groups: list[list[Hashable]] = []
    for p in sorted(results, key=lambda p: -score[p]):
        if groups and score[groups[-1][0]] == score[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    for name in order:
        refined: list[list[Hashable]] = []
        for group in groups:
            tied = set(group)
            vals = {p: value(name, p, results, score, tied=tied, unplayed=unplayed, win=win) for p in group}
            for p in group:
                shown[p].setdefault(name, vals[p])
            if len(group) == 1:
                refined.append(group)
                continue
            for p in sorted(group, key=lambda p: -vals[p]):
                if refined and refined[-1][0] in tied and vals[refined[-1][0]] == vals[p]:
                    refined[-1].append(p)
                else:
                    refined.append([p])
        groups = refined
    out: list[Standing] = []
    for group in groups:
        rank = len(out) + 1
        out.extend(Standing(p, score[p], shown[p], rank) for p in group)
    return out
