"""Swiss system: score groups, no rematches, first-move (X) balance, one bye each.

First move plays the part of White in chess, and the colour rules are FIDE's (C.04):

- colour difference = games with X minus games with O (byes and unplayed games skipped);
- *absolute* preference: difference beyond +-1, or the same first-move side in the last
  two games: that player must get the other side (so nobody has the same side three
  times running and the imbalance never exceeds 2) -- two players with the same
  absolute preference are never paired while any other pairing exists;
- *strong*: difference +-1; *mild*: difference 0, alternate from the last game.

How a round is paired (``pair_round``):

1. Players are ordered by score, then by pairing number (their rank). With an odd
   number the lowest-ranked player of the lowest score group who has not had a bye
   gets it (worth ``bye_points``).
2. Up to ``exact_up_to`` players (64): one exact matching over everybody; when the
   others cannot all be paired around the chosen bye, the bye becomes a vertex of its own. Larger fields: score groups are paired from the top. Each group is split like FIDE's Dutch system
   into a top half S1 and a bottom half S2 (S1's i-th player ideally meets S2's i-th)
   and cut into *blocks* of ``block_size`` players (matching halves of S1 and S2).
   Each block is paired by ``networkx.max_weight_matching`` (maximum cardinality) on
   the graph of allowed pairs: no rematches, no clash of absolute preferences. A
   player left over (odd block, or nobody allowed) moves on to the next block; left
   over at the end of a group, they *float down* to the next group, where pairing them
   is worth more than anything else. So the graph is sparse: edges only inside a block
   of one score group plus the floaters from the group just above.
3. If players are left at the very end, the pairing is *widened*: the last pairs made
   are undone and redone together with the leftovers in one matching over all of them,
   doubling the number undone each time; then absolute preferences become a heavy
   penalty instead of a prohibition; then, as a last resort, rematches too.

Weights, most important first: pairing a floater from above; the score difference;
first-move preferences (clash of strong ones, then of mild ones); Dutch position
(S1's i-th against S2's i-th); the lowest-ranked player being the one left over.

Each pairing carries ``reasons`` (explain.Reason: a code, its players, its data): the
decisions the pairing took for it (score group, float and why, first-move rule, bye
rule, rematch), which explain.text puts into words.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx

from .explain import Reason

X, O = "X", "O"  # noqa: E741 - the two sides, as players call them
ABSOLUTE, STRONG, MILD, NONE = 3, 2, 1, 0


def recommended_rounds(n: int) -> int:
    """Rounds for ``n`` players: ceil(log2 n) + 2, capped for tiny fields.

    ceil(log2 n) rounds separate a single winner when every game is decisive; Tic Tac
    Toe and its variants draw often, so two more rounds are recommended to separate
    the top of the table. A Swiss as long as a round robin (n - 1 rounds) can run into
    a dead end (the pairs left over may form odd cycles), so small fields are capped:
    n - 1 up to 4 players, 3 rounds for 5, n - 3 above (play a round robin instead).
    """
    if n < 2:
        return 0
    cap = n - 1 if n <= 4 else 3 if n == 5 else n - 3
    return min(cap, math.ceil(math.log2(n)) + 2)


@dataclass
class SwissPlayer:
    id: Hashable
    rank: int  # pairing number, 0 = the strongest: it breaks ties in score order
    score: float = 0.0
    opponents: set[Hashable] = field(default_factory=set)
    colours: list[str] = field(default_factory=list)  # X/O of games played, oldest first
    had_bye: bool = False
    active: bool = True
    colour_rounds: list[int] = field(default_factory=list)  # the round of each entry of ``colours``

    def rounds_with(self, side: str) -> list[int]:
        """The rounds this player had ``side`` (counted 1, 2... when the rounds are not given)."""
        rounds = self.colour_rounds if len(self.colour_rounds) == len(self.colours) else range(1, len(self.colours) + 1)
        return [r for r, c in zip(rounds, self.colours) if c == side]

    @property
    def colour_difference(self) -> int:
        return self.colours.count(X) - self.colours.count(O)


def colour_preference(colours: Sequence[str]) -> tuple[str | None, int]:
    """(preferred side or None, strength) from a player's first-move history."""
    if not colours:
        return None, NONE
    diff = sum(1 if c == X else -1 for c in colours)
    if diff >= 2 or (diff >= 0 and list(colours[-2:]) == [X, X]):
        return O, ABSOLUTE
    if diff <= -2 or (diff <= 0 and list(colours[-2:]) == [O, O]):
        return X, ABSOLUTE
    if list(colours[-2:]) == [X, X]:
        return O, ABSOLUTE
    if list(colours[-2:]) == [O, O]:
        return X, ABSOLUTE
    if diff == 1:
        return O, STRONG
    if diff == -1:
        return X, STRONG
    return (O if colours[-1] == X else X), MILD


@dataclass
class Pairing:
    first: Hashable  # moves first (X)
    second: Hashable | None  # None: ``first`` has the bye
    board: int = 0
    reasons: list[Reason] = field(default_factory=list)

    @property
    def is_bye(self) -> bool:
        return self.second is None


class PairingError(Exception):
    pass


# Weight tiers (integers, so the matching is exact).
_BASE = 10**9
_FLOATER_IN = 10**8  # a player who floated down from a higher group gets paired
_CARRIED = 10**7  # a player left over from the previous block of the same group
_SCORE_STEP = 10**6  # per (half point of score difference) squared
_CLASH = {ABSOLUTE: 10**7, STRONG: 10**5, MILD: 10**4}  # both want the same side
_REMATCH = 10**8 * 5


_BYE_NODE = SwissPlayer("bye", 10**9, active=False)  # the bye, as a matching vertex


class _Ctx:
    """Per-round lookups used while building graphs."""

    def __init__(self, players: Sequence[SwissPlayer]) -> None:
        self.by_id = {p.id: p for p in players}
        self.pref = {p.id: colour_preference(p.colours) for p in players}

    def allowed(self, a: SwissPlayer, b: SwissPlayer, level: int) -> bool:
        if a is _BYE_NODE or b is _BYE_NODE:
            other = b if a is _BYE_NODE else a
            return level >= 2 or not other.had_bye
        if level < 2 and b.id in a.opponents:
            return False
        if level < 1:
            (pa, sa), (pb, sb) = self.pref[a.id], self.pref[b.id]
            if sa == ABSOLUTE and sb == ABSOLUTE and pa == pb:
                return False
        return True

    def base_weight(self, a: SwissPlayer, b: SwissPlayer) -> int:
        if a is _BYE_NODE or b is _BYE_NODE:
            # The bye goes to a low score group, lower-ranked first.
            other = b if a is _BYE_NODE else a
            return (
                _BASE - _SCORE_STEP * round(other.score * 2) + other.rank - (_REMATCH if other.had_bye else 0)
            )
        w = _BASE
        steps = round(abs(a.score - b.score) * 2)
        w -= _SCORE_STEP * steps * steps
        (pa, sa), (pb, sb) = self.pref[a.id], self.pref[b.id]
        if pa is not None and pa == pb:
            w -= _CLASH[min(sa, sb)]
        if b.id in a.opponents:
            w -= _REMATCH
        return w


def _match(
    ctx: _Ctx,
    nodes: list[SwissPlayer],
    bonus: Mapping[Hashable, int],
    extra: dict[tuple[int, int], int],
    level: int,
) -> tuple[list[tuple[SwissPlayer, SwissPlayer]], list[SwissPlayer]]:
    """Maximum-cardinality, maximum-weight matching of ``nodes``; returns (pairs, left over)."""
    g = nx.Graph()
    g.add_nodes_from(range(len(nodes)))
    for i in range(len(nodes)):
        a = nodes[i]
        for j in range(i + 1, len(nodes)):
            b = nodes[j]
            if ctx.allowed(a, b, level):
                w = ctx.base_weight(a, b) + bonus.get(a.id, 0) + bonus.get(b.id, 0) - extra.get((i, j), 0)
                g.add_edge(i, j, weight=w)
    mate = nx.max_weight_matching(g, maxcardinality=True)
    paired: set[int] = set()
    pairs = []
    for i, j in mate:
        paired.update((i, j))
        pairs.append((nodes[min(i, j)], nodes[max(i, j)]))
    return pairs, [nodes[i] for i in range(len(nodes)) if i not in paired]


def _block_pairing(
    ctx: _Ctx, ordered: list[SwissPlayer], block_size: int
) -> tuple[list[tuple[SwissPlayer, SwissPlayer]], list[SwissPlayer]]:
    """Pair score group by score group, block by block; returns (pairs, players left over)."""
    groups: list[list[SwissPlayer]] = []
    for p in ordered:
        if groups and groups[-1][0].score == p.score:
            groups[-1].append(p)
        else:
            groups.append([p])
    pairs: list[tuple[SwissPlayer, SwissPlayer]] = []
    carry: list[SwissPlayer] = []
    half_block = max(1, block_size // 2)
    for group in groups:
        h = len(group) // 2
        s1, s2 = group[:h], group[h:]
        nblocks = max(1, math.ceil(len(s1) / half_block))
        for k in range(nblocks):
            top = s1[k * half_block : (k + 1) * half_block]
            bottom = s2[k * half_block :] if k == nblocks - 1 else s2[k * half_block : (k + 1) * half_block]
            nodes = carry + top + bottom
            bonus: dict[Hashable, int] = {}
            for p in carry:
                bonus[p.id] = _FLOATER_IN if p.score != group[0].score else _CARRIED
            # Left-over preference: the lower a player in the block, the less it costs to leave them.
            for pos, p in enumerate(top + bottom):
                bonus[p.id] = bonus.get(p.id, 0) + 2 * (len(top) + len(bottom) - pos)
            # Dutch position: S1's i-th against S2's i-th.
            extra: dict[tuple[int, int], int] = {}
            offset = len(carry)
            for i in range(len(top)):
                for j in range(len(bottom)):
                    extra[(offset + i, offset + len(top) + j)] = 100 * abs(i - j)
            for i in range(len(top)):
                for j in range(i + 1, len(top)):
                    extra[(offset + i, offset + j)] = 100 * (len(top) + j - i)
            for i in range(len(bottom)):
                for j in range(i + 1, len(bottom)):
                    extra[(offset + len(top) + i, offset + len(top) + j)] = 100 * (len(bottom) + j - i)
            got, carry = _match(ctx, nodes, bonus, extra, level=0)
            pairs.extend(got)
    return pairs, carry


def _widen(
    ctx: _Ctx, pairs: list[tuple[SwissPlayer, SwissPlayer]], left: list[SwissPlayer], bye: SwissPlayer | None
) -> tuple[list[tuple[SwissPlayer, SwissPlayer]], SwissPlayer | None, int]:
    """Undo the last pairs and redo them with the leftovers, wider and wider.

    Once everybody is redone the bye is chosen again inside the matching (a vertex of
    its own), so another player can take it if that lets the rest be paired.
    Returns (pairs, bye player, relaxation level: 0 none, 1 first-move, 2 rematches).
    """
    undo = 2
    for level in (0, 1, 2):
        while True:
            undo = min(undo, len(pairs))
            kept, redo = pairs[: len(pairs) - undo], pairs[len(pairs) - undo :]
            nodes = [p for pair in redo for p in pair] + left
            everyone = undo >= len(pairs)
            if everyone and bye is not None:
                nodes += [bye, _BYE_NODE]
            nodes.sort(key=lambda p: (-p.score, p.rank))
            got, rest = _match(ctx, nodes, {}, {}, level)
            if not rest:
                chosen = bye
                if everyone and bye is not None:
                    chosen = next(a if b is _BYE_NODE else b for a, b in got if _BYE_NODE in (a, b))
                    got = [(a, b) for a, b in got if _BYE_NODE not in (a, b)]
                return kept + got, chosen, level
            if everyone:
                break
            undo *= 2
    raise PairingError("These players cannot all be paired.")


def _dutch_extra(nodes: list[SwissPlayer]) -> dict[tuple[int, int], int]:
    """Dutch position inside each score group: S1's i-th against S2's i-th (a penalty per edge)."""
    where: dict[Hashable, tuple[float, int, int]] = {}
    groups: dict[float, list[SwissPlayer]] = {}
    for p in nodes:
        if p is not _BYE_NODE:
            groups.setdefault(p.score, []).append(p)
    for score, members in groups.items():
        for idx, p in enumerate(members):
            where[p.id] = (score, idx, len(members) // 2)
    extra: dict[tuple[int, int], int] = {}
    for i, a in enumerate(nodes):
        for j in range(i + 1, len(nodes)):
            b = nodes[j]
            if a is _BYE_NODE or b is _BYE_NODE or where[a.id][0] != where[b.id][0]:
                continue
            _, ia, h = where[a.id]
            _, ib, _ = where[b.id]
            extra[(i, j)] = 100 * abs(abs(ib - ia) - h)
    return extra


def _exact_pairing(
    ctx: _Ctx, ordered: list[SwissPlayer], bye: SwissPlayer | None
) -> tuple[list[tuple[SwissPlayer, SwissPlayer]], SwissPlayer | None, int]:
    """Small fields: one matching over everybody, widened by level. The bye stays with the
    player the bye rule chose when the others can all be paired without relaxing a rule;
    else it becomes a vertex of its own, so it moves up if that lets everyone be paired."""
    if bye is not None:
        nodes = sorted(ordered, key=lambda p: (-p.score, p.rank))
        got, rest = _match(ctx, nodes, {}, _dutch_extra(nodes), 0)
        if not rest:
            return got, bye, 0
    nodes = ordered + ([bye, _BYE_NODE] if bye is not None else [])
    nodes.sort(key=lambda p: (-p.score, p.rank))
    extra = _dutch_extra(nodes)
    for level in (0, 1, 2):
        got, rest = _match(ctx, nodes, {}, extra, level)
        if not rest:
            chosen = bye
            if bye is not None:
                chosen = next(a if b is _BYE_NODE else b for a, b in got if _BYE_NODE in (a, b))
            return [(a, b) for a, b in got if _BYE_NODE not in (a, b)], chosen, level
    raise PairingError("These players cannot all be paired.")


def _choose_bye(ordered: list[SwissPlayer]) -> SwissPlayer:
    for p in reversed(ordered):
        if not p.had_bye:
            return p
    return ordered[-1]  # everybody has had one: the lowest-ranked gets a second


def _allocate(a: SwissPlayer, b: SwissPlayer, ctx: _Ctx, board: int) -> tuple[SwissPlayer, SwissPlayer, Reason]:
    """Who moves first, by FIDE's colour allocation rules; ``a`` ranks higher. Returns (X, O, the rule used)."""
    (pa, sa), (pb, sb) = ctx.pref[a.id], ctx.pref[b.id]

    def reason(first: SwissPlayer, second: SwissPlayer, rule: str, **data: object) -> Reason:
        return Reason("first-move", (first.id, second.id), {
            "rule": rule, "x": [first.rounds_with(X), second.rounds_with(X)],
            "o": [first.rounds_with(O), second.rounds_with(O)],
            "strength": [ctx.pref[first.id][1], ctx.pref[second.id][1]], **data})

    if pa is None and pb is None:
        # Round one: the higher-ranked player moves first on odd boards.
        first, second = (a, b) if board % 2 == 1 else (b, a)
        return first, second, reason(first, second, "board", board=board)
    if pa != pb:
        if pa is None:
            first, second = (b, a) if pb == X else (a, b)
        elif pb is None or pa == X:
            first, second = (a, b) if pa == X else (b, a)
        else:
            first, second = b, a
        prefers = [ctx.pref[first.id][0] == X, ctx.pref[second.id][0] == O]
        return first, second, reason(first, second, "preferences", prefers=prefers)
    # Both want the same side.
    rule, since = "rank", 0
    if sa != sb:
        winner, rule = (a if sa > sb else b), "stronger"
    else:
        winner = a
        rounds_a = sorted(a.rounds_with(X) + a.rounds_with(O), reverse=True)
        for k, (ca, cb) in enumerate(zip(reversed(a.colours), reversed(b.colours))):
            if ca != cb:  # alternate from the last time they differed
                winner, rule, since = (a if ca != pa else b), "alternate", rounds_a[k] if k < len(rounds_a) else 0
                break
    loser = b if winner is a else a
    first, second = (winner, loser) if pa == X else (loser, winner)
    return first, second, reason(first, second, rule, side="first" if pa == X else "second",
                                 winner=0 if winner is first else 1, round=since)


def _float_reason(ctx: _Ctx, ordered: Sequence[SwissPlayer], a: SwissPlayer, b: SwissPlayer, level: int) -> Reason:
    """Why ``a`` floated down to ``b``: an odd count at and above a's score, else who in
    a's group the pairing's rules kept a from meeting."""
    why, blocked = "others", None
    if sum(1 for p in ordered if p.score >= a.score) % 2:
        why = "odd"
    else:
        mates = [m for m in ordered if m.score == a.score and m is not a]
        rematch = [m for m in mates if m.id in a.opponents]
        clash = [m for m in mates if not ctx.allowed(a, m, min(level, 1)) and m not in rematch]
        if rematch:
            why, blocked = "rematch", rematch[0]
        elif clash:
            why, blocked = "first-move", clash[0]
    players = (a.id, b.id) + ((blocked.id,) if blocked is not None else ())
    return Reason("float", players, {"from": a.score, "to": b.score, "why": why})


def pair_round(
    players: Iterable[SwissPlayer], *, block_size: int = 32, exact_up_to: int = 64
) -> list[Pairing]:
    """Pairings for the next round of the active ``players`` (see the module docstring)."""
    ordered = sorted((p for p in players if p.active), key=lambda p: (-p.score, p.rank))
    if not ordered:
        return []
    ctx = _Ctx(ordered)
    last = ordered[-1]  # the lowest-ranked player: a bye to anyone else needs its reason
    bye: SwissPlayer | None = None
    if len(ordered) % 2:
        bye = _choose_bye(ordered)
        ordered = [p for p in ordered if p is not bye]
    lowest = bye
    level = 0
    if len(ordered) <= exact_up_to:
        pairs, bye, level = _exact_pairing(ctx, ordered, bye)
    else:
        pairs, left = _block_pairing(ctx, ordered, block_size)
        if left:
            pairs, bye, level = _widen(ctx, pairs, left, bye)
    pairs = [(a, b) if (-a.score, a.rank) <= (-b.score, b.rank) else (b, a) for a, b in pairs]
    pairs.sort(key=lambda ab: (-ab[0].score, -ab[1].score, ab[0].rank))
    paired = [p for pair in pairs for p in pair]
    result: list[Pairing] = []
    for board, (a, b) in enumerate(pairs, start=1):
        first, second, colour_rule = _allocate(a, b, ctx, board)
        reasons: list[Reason] = []
        if a.score == b.score:
            reasons.append(Reason("score-group", (), {"points": a.score}))
        else:
            reasons.append(_float_reason(ctx, paired, a, b, level))
        reasons.append(colour_rule)
        (pf, _), (ps, _) = ctx.pref[first.id], ctx.pref[second.id]
        if b.id in a.opponents:
            reasons.append(Reason("rematch", (a.id, b.id)))
        elif level == 1 and not (pf in (X, None) and ps in (O, None)):
            reasons.append(Reason("first-move-relaxed", (first.id, second.id)))
        result.append(Pairing(first.id, second.id, board, reasons))
    if bye is not None:
        rule = "again" if bye.had_bye else "lowest" if bye is lowest else "moved-up"
        data: dict[str, object] = {"rule": rule}
        if rule == "lowest" and bye is not last:  # everybody ranked below has had one
            data = {"rule": "lowest-eligible", "forfeits": False}
        result.append(Pairing(bye.id, None, len(result) + 1, [Reason("bye", (bye.id,), data)]))
    return result


# -- a whole tournament ----------------------------------------------------------


@dataclass
class RoundRecord:
    pairings: list[Pairing]
    points: dict[Hashable, float] = field(default_factory=dict)  # per player, this round


class SwissTournament:
    """Swiss state for a whole event: pair a round, record its results, repeat.

    ``record(pairing, first_points, second_points)`` takes each game's (or each
    match's, see ``matches.pairing_points``) points; a bye scores ``bye_points``.
    """

    def __init__(
        self,
        player_ids: Sequence[Hashable],
        *,
        bye_points: float = 1.0,
        block_size: int = 32,
        exact_up_to: int = 64,
    ) -> None:
        if len(set(player_ids)) != len(player_ids):
            raise ValueError("Each player appears once.")
        self.players = {pid: SwissPlayer(pid, rank) for rank, pid in enumerate(player_ids)}
        self.bye_points = bye_points
        self.block_size = block_size
        self.exact_up_to = exact_up_to
        self.rounds: list[RoundRecord] = []

    def pair_round(self) -> list[Pairing]:
        if self.rounds and not self._complete(self.rounds[-1]):
            raise PairingError("The last round still has games without a result.")
        pairings = pair_round(self.players.values(), block_size=self.block_size, exact_up_to=self.exact_up_to)
        record = RoundRecord(pairings)
        for p in pairings:
            if p.is_bye:
                player = self.players[p.first]
                player.had_bye = True
                player.score += self.bye_points
                record.points[p.first] = self.bye_points
        self.rounds.append(record)
        return pairings

    def record(self, pairing: Pairing, first_points: float, second_points: float) -> None:
        record = self.rounds[-1]
        if pairing.is_bye or pairing not in record.pairings or pairing.first in record.points:
            raise ValueError("That pairing is not waiting for a result.")
        assert pairing.second is not None
        a, b = self.players[pairing.first], self.players[pairing.second]
        a.opponents.add(b.id)
        b.opponents.add(a.id)
        a.colours.append(X)
        b.colours.append(O)
        a.colour_rounds.append(len(self.rounds))
        b.colour_rounds.append(len(self.rounds))
        a.score += first_points
        b.score += second_points
        record.points[a.id] = first_points
        record.points[b.id] = second_points

    @staticmethod
    def _complete(record: RoundRecord) -> bool:
        return all(p.first in record.points for p in record.pairings)


def round_quality(
    players_before: Mapping[Hashable, SwissPlayer], pairings: Sequence[Pairing]
) -> dict[str, int]:
    """Quality figures of one round's pairings, measured against the players' history.

    rematches; players who would have the same first-move side three times running;
    the largest |X - O| after the round; pairs of unequal score (floaters); and the
    parity minimum of floaters (a lower bound ignoring every other rule).
    """
    rematches = three = worst = floaters = 0
    for p in pairings:
        if p.second is None:
            continue
        a, b = players_before[p.first], players_before[p.second]
        rematches += b.id in a.opponents
        floaters += a.score != b.score
        for player, side in ((a, X), (b, O)):
            seq = [*player.colours, side]
            three += len(seq) >= 3 and len(set(seq[-3:])) == 1
            worst = max(worst, abs(seq.count(X) - seq.count(O)))
    # Parity minimum: going down the score groups, a group with an odd number of players
    # (counting one floating in) must send one down; each such boundary is one floater.
    byes = {p.first for p in pairings if p.second is None}
    sizes: dict[float, int] = {}
    for pl in players_before.values():
        if pl.active and pl.id not in byes:
            sizes[pl.score] = sizes.get(pl.score, 0) + 1
    minimum = carry = 0
    for score in sorted(sizes, reverse=True):
        carry = (carry + sizes[score]) % 2
        minimum += carry
    return {
        "rematches": rematches,
        "three_in_a_row": three,
        "max_imbalance": worst,
        "floaters": floaters,
        "floaters_parity_minimum": minimum,
    }


if __name__ == "__main__":  # python -m league.formats.swiss --dutch|--fast FILE -p|-c (see swiss_cli)
    from . import swiss_cli

    raise SystemExit(swiss_cli.main())
