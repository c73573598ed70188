"""FIDE (Dutch) System, C.04.3 as applied from 1 July 2025, with the basic rules
(C.04.1) and general handling rules (C.04.2) it rests on. Pure: no Django.

Input is a TRF-16 tournament (league.formats.trf): start numbers are pairing numbers,
``w`` moves first. ``pair(tournament, round_number)`` gives that round's pairs as
(white, black) start numbers, a pairing-allocated bye as (n, None).

How a round is paired. The rules rank candidate pairings by a list of criteria, most
important first; every criterion is a count (or a sum of scores) over the pairs, so
the whole list can be folded into one number per pair: each criterion gets its own
bit field, wide enough that no sum of lower fields reaches it, and the pairing that
maximises the sum of its pairs' numbers is the one the criteria prefer (the method of
bbpPairings' author, after the 2017 "Pairing guidelines for programmers"):

1. completion (C4): every player paired but at most one, who may take the bye;
2. in the bracket being paired: the most pairs (C6), the highest scores paired (C7);
3. in the next bracket: the same (C8), so the floaters chosen leave it pairable;
4. the bye to a player with the fewest unplayed games (C9, new in 2025);
5. first-move sides: absolute imbalances (C10), absolute preferences (C11),
   preferences (C12), strong preferences (C13) granted;
6. floats: players who floated down / up in the last round (C14, C15) or the round
   before (C16, C17) not floating the same way again, then their scores (C18-C21).

Brackets are paired from the top score down (1.3, 2): one weighted maximum matching
over all players not yet paired decides the bracket's criteria values; a few more,
each with one player's weights nudged, then fix the order rules leave open: which
moved-down players are paired (2.3.1), to whom, the fewest exchanges between S1 and
S2 with the smallest difference of numbers (4.3), and S1's players in order taking the
first S2 player that keeps the optimum (the transpositions of 4.2).

Colours are given by 5.2: both preferences if they differ, else the stronger one,
else alternate from the last round the two differed, else the higher-ranked player's
preference; players without preferences follow the initial colour by rank.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx

from . import trf
from .explain import Reason

W, B = "w", "b"
_DOWN, _UP, _NONE = "down", "up", None


class DutchError(ValueError):
    """No pairing satisfies the absolute criteria (or the input cannot be paired)."""


@dataclass(frozen=True)
class Points:
    """The point system; FIDE's default is 1, 1/2, 0 and a win for the PAB."""

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    forfeit_loss: float = 0.0
    zero_bye: float = 0.0
    pab: float = 1.0


@dataclass(frozen=True)
class Pair:
    white: int  # start number of the player who moves first (X)
    black: int | None  # None: ``white`` has the pairing-allocated bye
    reasons: tuple[Reason, ...] = ()


# -- a player's history, as the rules read it ------------------------------------

_WINS, _DRAWS = frozenset("+W1FU"), frozenset("D=H")
_UNPLAYED = frozenset("+-HFUZ ")


@dataclass
class _Round:
    """One round of a player's history."""

    opponent: int | None
    colour: str | None  # w / b of a game played over the board, else None
    points: float
    played: bool
    participated: bool  # paired, or given the pairing-allocated bye


def _history(game: trf.Game, number: int, points: Points) -> _Round:
    opponent = game.opponent if game.opponent not in (None, number) else None
    result = game.result.upper()
    played = opponent is not None and game.colour in (W, B) and result not in _UNPLAYED
    participated = opponent is not None or result in "U+"
    if result in _WINS:
        value = points.pab if (opponent is None and result == "U") else points.win
    elif result in _DRAWS:
        value = points.draw
    elif participated:
        value = points.loss if played else points.forfeit_loss
    else:
        value = points.zero_bye
    return _Round(opponent, game.colour if played else None, value, played, participated)


@dataclass
class _Player:
    number: int
    rank: int = 0  # rank among the players of the event (0 = highest), the pairing number's order
    rounds: list[_Round] = field(default_factory=list)
    score: float = 0.0
    played_games: int = 0
    preference: str | None = None
    imbalance: int = 0
    repeated: str | None = None  # the colour of two or more games running at the end
    strong: bool = False
    eligible_for_bye: bool = True
    opponents: set[int] = field(default_factory=set)
    floats: tuple[str | None, str | None] = (None, None)  # last round, the round before
    colours: list[str] = field(default_factory=list)  # played games' colours, oldest first

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1

    @property
    def absolute(self) -> bool:
        return self.absolute_imbalance or self.repeated is not None

    def score_before(self, rounds_back: int) -> float:
        return self.score - sum(r.points for r in self.rounds[len(self.rounds) - rounds_back:]) if rounds_back else self.score


def _other(colour: str | None) -> str | None:
    return W if colour == B else B if colour == W else None


def _colour_data(player: _Player) -> None:
    """1.7: colour difference and preference (absolute, strong, mild)."""
    whites = blacks = running = 0
    last: str | None = None
    for r in player.rounds:
        if not r.played:
            continue
        player.played_games += 1
        player.colours.append(r.colour or "")
        if r.colour == W:
            whites += 1
        else:
            blacks += 1
        running = running + 1 if r.colour == last else 1
        last = r.colour
    lower = B if whites > blacks else W
    player.imbalance = abs(whites - blacks)
    if player.imbalance > 1:
        player.preference = lower
    elif running > 1:
        player.preference = _other(last)
    elif player.imbalance > 0:
        player.preference = lower
    elif running:
        player.preference = _other(last)
    player.repeated = last if running > 1 else None
    player.strong = not player.absolute and player.imbalance > 0


def _players(tournament: trf.Tournament, round_number: int, points: Points) -> tuple[list[_Player], list[_Player]]:
    """(everybody with a history, the players to pair this round), ranked by start number."""
    everyone: list[_Player] = []
    to_pair: list[_Player] = []
    for line in sorted(tournament.players, key=lambda p: p.number):
        history = [_history(g, line.number, points) for g in line.rounds[:round_number - 1]]
        history += [_Round(None, None, points.zero_bye, False, False)] * (round_number - 1 - len(history))
        player = _Player(line.number, rounds=history)
        absent = len(line.rounds) >= round_number  # a preset bye or absence for this round
        if not absent or any(r.participated for r in history):
            player.rank = len(everyone)
            everyone.append(player)
        if not absent:
            to_pair.append(player)
    for player in everyone:
        player.score = sum(r.points for r in player.rounds)
        player.opponents = {r.opponent for r in player.rounds if r.played and r.opponent is not None}
        player.eligible_for_bye = not any(
            not r.played and (r.points >= points.win or (r.participated and r.opponent is None))
            for r in player.rounds)
        _colour_data(player)
    by_number = {p.number: p for p in everyone}
    for player in everyone:
        player.floats = (_float(player, 1, by_number, points), _float(player, 2, by_number, points))
    return everyone, to_pair


def _float(player: _Player, rounds_back: int, by_number: dict[int, _Player], points: Points) -> str | None:
    """1.4: the float of the round ``rounds_back`` before this one."""
    if len(player.rounds) < rounds_back:
        return _NONE
    r = player.rounds[len(player.rounds) - rounds_back]
    if not r.played:
        return _DOWN if r.points > points.loss else _NONE  # 1.4.3: a point without playing
    opponent = by_number.get(r.opponent) if r.opponent is not None else None
    if opponent is None:
        return _NONE
    mine, theirs = player.score_before(rounds_back), opponent.score_before(rounds_back)
    return _DOWN if mine > theirs else _UP if mine < theirs else _NONE


def _bits(value: int) -> int:
    return max(1, value.bit_length())


# -- the pairing ------------------------------------------------------------------


class _Weights:
    """The edge weights of one round: the criteria folded into one integer per pair."""

    def __init__(self, players: list[_Player], played_rounds: int, total_rounds: int, win: float) -> None:
        self.players = players
        self.played_rounds = played_rounds
        self.last_round = played_rounds >= total_rounds - 1
        self.top_threshold = played_rounds * win / 2
        sizes: dict[float, int] = {}
        for p in players:
            sizes[p.score] = sizes.get(p.score, 0) + 1
        self.group_bits = _bits(max(sizes.values()))  # S: one count of players
        self.shift: dict[float, int] = {}
        total = 0
        for score in sorted(sizes):  # the lowest group at the lowest bits
            self.shift[score] = total
            total += _bits(sizes[score])
        self.groups_bits = total  # G: one bit per player, grouped by score
        self.bye_score = 0.0
        self.single_downfloater_is_bye = False
        self.unplayed_rank: dict[int, int] = {}

    @property
    def low_bits(self) -> int:
        """The width of everything below the completion field (the layout of ``edge``)."""
        S, G = self.group_bits, self.groups_bits
        floats = (1 if self.played_rounds else 0) + (1 if self.played_rounds > 1 else 0)
        return (S + G) * 2 + 2 * S + 4 * S + floats * (2 * S + 2 * G) + 3 * S + 1

    def compatible(self, a: _Player, b: _Player) -> bool:
        """C1 and C3: no rematch; no two absolute preferences for the same side (but for
        topscorers in the last round)."""
        if b.number in a.opponents:
            return False
        if not (a.absolute and b.absolute and a.preference == b.preference):
            return True
        return self.last_round and (a.score > self.top_threshold or b.score > self.top_threshold)

    def bye_candidate(self, p: _Player) -> bool:
        return p.eligible_for_bye and p.score <= self.bye_score

    def edge(self, high: _Player, low: _Player, low_in_bracket: bool, low_in_next: bool) -> int:
        """The weight of pairing ``high`` (ranked higher) with ``low``; 0: not allowed."""
        if not self.compatible(high, low):
            return 0
        S, G = self.group_bits, self.groups_bits
        w = 1 + (not self.bye_candidate(high)) + (not self.bye_candidate(low))
        w = (w << S) | low_in_bracket
        w <<= G
        if low_in_bracket:
            w |= 1 << self.shift[high.score]
        w = (w << S) | low_in_next
        w <<= G
        if low_in_next:
            w |= 1 << self.shift[high.score]
        w <<= 2 * S
        if self.single_downfloater_is_bye:
            if high.score == self.bye_score:
                w |= self.unplayed_rank[high.played_games]
            if low.score == self.bye_score:
                w += self.unplayed_rank[low.played_games]
        w = self._colours(w, low, high, low_in_bracket)
        if self.played_rounds:
            w = self._floats(w, high, low, low_in_bracket, 1)
        if self.played_rounds > 1:
            w = self._floats(w, high, low, low_in_bracket, 2)
        if self.played_rounds:
            w = self._float_scores(w, high, low, low_in_bracket, 1)
        if self.played_rounds > 1:
            w = self._float_scores(w, high, low, low_in_bracket, 2)
        return w << (3 * S + 1)  # room for the order rules (S1/S2, exchanges)

    def _colours(self, w: int, p: _Player, o: _Player, mask: bool) -> int:
        S = self.group_bits
        same = p.preference == o.preference
        w = (w << S) | (mask and not (p.absolute_imbalance and o.absolute_imbalance and same))
        if p.imbalance == o.imbalance:
            repeat_ok = p.repeated is None or p.repeated != o.repeated
        else:
            repeat_ok = (o if p.imbalance > o.imbalance else p).repeated != _other(p.preference)
        w = (w << S) | (mask and (not (p.absolute and o.absolute and same) or repeat_ok))
        w = (w << S) | (mask and (not same or p.preference is None or o.preference is None))
        strong_p = p.strong or p.absolute
        strong_o = o.strong or o.absolute
        return (w << S) | (mask and (not strong_p or not strong_o or (p.absolute and o.absolute) or not same))

    def _floats(self, w: int, high: _Player, low: _Player, mask: bool, back: int) -> int:
        S = self.group_bits
        w <<= S
        if mask:
            w |= low.floats[back - 1] == _DOWN
            w += high.score <= low.score and high.floats[back - 1] == _DOWN
        w <<= S
        if mask:
            w |= not (high.score > low.score and low.floats[back - 1] == _UP)
        return w

    def _float_scores(self, w: int, high: _Player, low: _Player, mask: bool, back: int) -> int:
        G = self.groups_bits
        w <<= G
        if mask:
            w += (low.floats[back - 1] == _DOWN) << self.shift[low.score]
            w += (high.floats[back - 1] == _DOWN) << self.shift[high.score]
        w <<= G
        if mask and not (low.floats[back - 1] == _UP and high.score > low.score):
            w |= 1 << self.shift[high.score]
        return w


class _Matcher:
    """A maximum weight matching over the players not yet paired, re-solved as weights change."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.weights: dict[tuple[int, int], int] = {}
        self.mate: list[int] = list(range(size))
        self.fixed: dict[int, int] = {}
        self.region_end: int | None = None  # the players from here on are not in play yet
        self.low_bits = 0  # the bits below the completion field
        self.bye_candidate: Callable[[int], bool] = lambda v: True

    def set(self, a: int, b: int, weight: int) -> None:
        key = (a, b) if a < b else (b, a)
        if weight and a not in self.fixed and b not in self.fixed:
            self.weights[key] = weight
        else:
            self.weights.pop(key, None)

    def solve(self) -> list[int]:
        """The optimum; near the top of a big field, found on the bracket, the next group and
        a check that the players below can still all be paired (see ``_solve_region``)."""
        if self.region_end is not None and self.size - self.region_end >= 2:
            mate = self._solve_region(self.region_end)
            if mate is not None:
                self.mate = mate
                return mate
        return self._solve_all()

    def _solve_all(self) -> list[int]:
        self.mate = self._matching(range(self.size), self.weights.items())
        return self.mate

    def _matching(self, vertices: Iterable[int], edges: Iterable[tuple[tuple[int, int], int]]) -> list[int]:
        graph = nx.Graph()
        graph.add_nodes_from(v for v in vertices if v not in self.fixed)
        graph.add_weighted_edges_from((a, b, w) for (a, b), w in edges if w)
        mate = list(range(self.size))
        for a, b in self.fixed.items():
            mate[a] = b
        for a, b in nx.max_weight_matching(graph):
            mate[a], mate[b] = b, a
        return mate

    def _solve_region(self, end: int) -> list[int] | None:
        """Every weight below ``end`` past the completion field is 0: the players from ``end``
        on only have to be pairable. So the best matching of the region without that field,
        if what it leaves over can be paired with the players below, is the optimum; else None.

        Measured: a 92-player event, 9 rounds, 42 s with one matching over everybody per
        decision, X s this way, with the same pairings."""
        low = (1 << self.low_bits) - 1
        mate = self._matching(range(end), (((a, b), w & low) for (a, b), w in self.weights.items() if b < end))
        free = [v for v in range(end) if mate[v] == v and v not in self.fixed] + list(range(end, self.size))
        while len(free) > 1:
            a = free.pop(0)
            for k, b in enumerate(free):
                if ((a, b) if a < b else (b, a)) in self.weights:
                    mate[a], mate[b] = b, a
                    del free[k]
                    break
            else:
                return None
        if free and not self.bye_candidate(free[0]):
            return None
        return mate

    def weight(self, a: int, b: int) -> int:
        return self.weights.get((a, b) if a < b else (b, a), 0)

    def swap_to(self, v: int, u: int) -> bool:
        """Pair v with u in the current optimum if that costs nothing: v's and u's partners
        pair up instead, at the same total weight (so no new matching is needed)."""
        mate = self.mate
        m, x = mate[v], mate[u]
        if m == u:
            return True
        if m == v or x == u or m == x:
            return False
        gained = self.weight(v, u) + self.weight(m, x)
        if not self.weight(v, u) or not self.weight(m, x) or gained != self.weight(v, m) + self.weight(u, x):
            return False
        mate[v], mate[u], mate[m], mate[x] = u, v, x, m
        return True

    def fix(self, a: int, b: int) -> None:
        """Keep a and b together: they leave the graph."""
        for key in [k for k in self.weights if a in k or b in k]:
            del self.weights[key]
        self.fixed[a], self.fixed[b] = b, a


def _pairing(players: list[_Player], played_rounds: int, total_rounds: int, points: Points) -> dict[int, int]:
    """The matching of the round as {vertex: mate vertex}, players ordered by score then rank."""
    n = len(players)
    weights = _Weights(players, played_rounds, total_rounds, points.win)
    S = weights.group_bits
    matcher = _Matcher(n)
    top = players[0].score

    # The bye's score group first (C4, C5): the lowest group that can give it.
    for i in range(n):
        for j in range(i):
            high, low = players[j], players[i]
            if n % 2:
                w = 0
                if weights.compatible(low, high):
                    w = 1 + (not low.eligible_for_bye) + (not high.eligible_for_bye)
                    w = (w << weights.groups_bits) | (weights.shift[low.score] + weights.shift[high.score])
                    w = (w << S) | (low.score >= top)
            else:
                w = weights.edge(high, low, False, False)
            matcher.set(i, j, w)
    mate = matcher.solve()
    unmatched = [v for v in range(n) if mate[v] == v]
    if len(unmatched) > 1 or (unmatched and not players[unmatched[0]].eligible_for_bye):
        raise DutchError("No pairing satisfies the absolute criteria: no rematches, no bye twice, "
                         "no two players who must both move first (or second).")
    if n % 2:
        bye = players[unmatched[0]]
        weights.bye_score = bye.score
        weights.single_downfloater_is_bye = bye.score >= top and all(
            players[mate[v]].score >= top for v in range(n) if players[v].score >= top)
        counts = sorted((p.played_games for p in players if p.score == bye.score), reverse=True)
        for rank, count in enumerate(counts):
            weights.unplayed_rank[count] = rank
        for i in range(n):
            for j in range(i):
                matcher.set(i, j, weights.edge(players[j], players[i], False, False))

    matcher.low_bits = weights.low_bits
    matcher.bye_candidate = lambda v: weights.bye_candidate(players[v])
    result: dict[int, int] = {}
    matched = [False] * n
    bracket: list[int] = []  # vertices of the bracket (moved-down players first), then of the next group
    nxt = 0
    while nxt < n and players[nxt].score >= top:
        bracket.append(nxt)
        nxt += 1
    movers = 0  # moved-down players at the head of ``bracket``
    first_vertex = 0  # the vertex of the bracket's first resident

    while len(bracket) > 1 or nxt < n:
        size = len(bracket)  # the bracket's players; the next score group follows
        next_vertex = first_vertex + (size - movers)
        group_start = nxt
        while nxt < n and players[nxt].score >= players[group_start].score:
            bracket.append(nxt)
            nxt += 1
        matcher.region_end = None if weights.single_downfloater_is_bye else nxt
        base: list[list[int]] = [[] for _ in bracket]
        for hi in range(movers, len(bracket)):
            base[hi] = [weights.edge(players[bracket[lo]], players[bracket[hi]], hi < size, hi >= size)
                        for lo in range(hi)]
            for lo, w in enumerate(base[hi]):
                matcher.set(bracket[hi], bracket[lo], w)

        def ordered(lo: int, hi: int, lo_position: int, pairs: int) -> int:
            """The weight with the exchange rules (4.3): fewest exchanges, smallest difference."""
            w = base[hi][lo]
            if w:
                w += ((int(lo_position < pairs) << (2 * S)) - lo_position) << 1
            return w

        mate = matcher.solve()

        def in_bracket(v: int) -> bool:
            return first_vertex <= mate[v] < next_vertex

        # 2.3.1: which moved-down players are paired, the highest first.
        left = can = 0
        group_score = None
        for i in range(movers):
            v = bracket[i]
            if group_score is None or players[v].score < group_score:
                group_score = players[v].score
                left = can = 0
                k = i
                while k < len(bracket) and players[bracket[k]].score >= group_score:
                    left += 1
                    can += in_bracket(bracket[k])
                    k += 1
            if not can:
                continue
            if left <= can:
                matched[v] = True
                continue
            left -= 1
            if not in_bracket(v):
                for opp in range(movers, size):
                    if base[opp][i]:
                        matcher.set(v, bracket[opp], base[opp][i] | 1)
                mate = matcher.solve()
            if in_bracket(v):
                matched[v] = True
                can -= 1
                for opp in range(movers, size):
                    if base[opp][i]:
                        matcher.set(v, bracket[opp], (base[opp][i] | (size - movers)) + 1)

        # Their opponents: each moved-down player, in order, the highest resident possible.
        for i in range(movers):
            v = bracket[i]
            if not matched[v]:
                continue
            first = next((opp for opp in range(movers, size) if not matched[bracket[opp]] and base[opp][i]), None)
            if first is not None and matcher.swap_to(v, bracket[first]):
                mate = matcher.mate
                matched[mate[v]] = True
                matcher.fix(v, mate[v])
                continue
            bonus = len(bracket)
            for opp in range(size - 1, movers - 1, -1):
                if matched[bracket[opp]]:
                    continue
                if base[opp][i]:
                    matcher.set(v, bracket[opp], base[opp][i] + bonus)
                    bonus += 1
            mate = matcher.solve()
            matched[mate[v]] = True
            matcher.fix(v, mate[v])

        # The remainder: S1 the first ``pairs`` residents still free, S2 the rest.
        remainder = [i for i in range(movers, size) if mate[bracket[i]] >= first_vertex]
        pairs = sum(1 for i in remainder if mate[bracket[i]] < bracket[i])
        for a, lo in enumerate(remainder):
            for hi in remainder[a + 1:]:
                matcher.set(bracket[lo], bracket[hi], ordered(lo, hi, a, pairs))
        mate = matcher.solve()

        def downward(v: int) -> bool:
            return v < mate[v] < next_vertex

        exchanges = sum(1 for i in remainder[:pairs] if not downward(bracket[i]))

        # 4.3: S1's lowest players go to S2 where they can...
        remaining = exchanges
        position = pairs
        while position > 0 and remaining:
            position -= 1
            lo = remainder[position]
            v = bracket[lo]
            if downward(v):
                for hi in remainder[position + 1:]:
                    w = ordered(lo, hi, position, pairs)
                    if w:
                        matcher.set(v, bracket[hi], w - 1)
                mate = matcher.solve()
            exchange = not downward(v)
            remaining -= exchange
            for hi in remainder[position + 1:]:
                if exchange:
                    base[hi][lo] = 0
                matcher.set(v, bracket[hi], ordered(lo, hi, position, pairs))

        # ...and S2's highest players to S1.
        remaining = exchanges
        for position in range(pairs, len(remainder)):
            if remaining <= 1:
                break
            hi_player = remainder[position]
            v = bracket[hi_player]
            already = downward(v)
            if not already:
                for other in remainder[position + 1:]:
                    w = ordered(hi_player, other, position, pairs)
                    if w:
                        matcher.set(v, bracket[other], w + 1)
                mate = matcher.solve()
            if downward(v):
                remaining -= 1
                for other in remainder[:position]:
                    base[hi_player][other] = 0
                    matcher.set(v, bracket[other], 0)
                for other in range(size, len(bracket)):
                    base[other][hi_player] = 0
                    matcher.set(v, bracket[other], 0)
            if not already:
                for other in remainder[position + 1:]:
                    matcher.set(v, bracket[other], ordered(hi_player, other, position, pairs))

        # Only S1 -> S2 edges stay, at their base weights.
        for a, lo in enumerate(remainder):
            for hi in remainder[a + 1:]:
                if not downward(bracket[lo]) or downward(bracket[hi]):
                    base[hi][lo] = 0
                matcher.set(bracket[lo], bracket[hi], base[hi][lo])

        # 4.2: S1's players in order, each taking the first S2 player that keeps the optimum.
        for lo in remainder:
            v = bracket[lo]
            if not downward(v):
                continue
            first = next((hi for hi in remainder if hi > lo and not matched[bracket[hi]] and base[hi][lo]), None)
            if first is not None and matcher.swap_to(v, bracket[first]):
                mate = matcher.mate
                matched[v] = matched[mate[v]] = True
                matcher.fix(v, mate[v])
                continue
            bonus = 0
            for hi in reversed(remainder):
                if hi <= lo or matched[bracket[hi]]:
                    continue
                if base[hi][lo]:
                    matcher.set(v, bracket[hi], base[hi][lo] + bonus)
                bonus += 1
            mate = matcher.solve()
            matched[v] = matched[mate[v]] = True
            matcher.fix(v, mate[v])

        # The next bracket: whoever is still free, then the next score group.
        following: list[int] = []
        movers = 0
        single = bool(n % 2) and group_start < n and weights.bye_score >= players[group_start].score
        for i, v in enumerate(bracket):
            if i < size and matched[v]:
                result[v] = mate[v]
                result[mate[v]] = v
            else:
                following.append(v)
                if i < size:
                    movers += 1
                if single and group_start < n and players[mate[v]].score < players[group_start].score:
                    single = False
        weights.single_downfloater_is_bye = single
        bracket = following
        first_vertex = next_vertex
    return result


def _first_colour(player: _Player, opponent: _Player) -> str | None:
    """5.2.1-5.2.4: the side ``player`` gets against ``opponent``; None: by rank (5.2.5)."""
    p, o = player.preference, opponent.preference
    if p != o or p is None or o is None:
        return p if p is not None else _other(o)
    if player.absolute and (player.imbalance > opponent.imbalance or not opponent.absolute):
        return p
    if opponent.absolute and (opponent.imbalance > player.imbalance or not player.absolute):
        return _other(o)
    if player.strong and not opponent.strong:
        return p
    if opponent.strong and not player.strong:
        return _other(o)
    for mine, theirs in zip(reversed(player.colours), reversed(opponent.colours)):
        if mine != theirs:
            return theirs  # alternate from the last round they differed
    return None


def _ranks_below(a: _Player, b: _Player) -> bool:
    return (a.score, b.rank) < (b.score, a.rank)


def _colour(player: _Player, opponent: _Player, initial: str) -> str:
    colour = _first_colour(player, opponent)
    if colour is not None:
        return colour
    if player.preference is None:
        if _ranks_below(player, opponent):
            return initial if opponent.rank % 2 else _other(initial) or W
        return (_other(initial) or W) if player.rank % 2 else initial
    return (_other(opponent.preference) or W) if _ranks_below(player, opponent) else player.preference


def first_round_colour(tournament: trf.Tournament) -> str:
    """XXC's colour, else inferred from the first round with colours: the highest-ranked
    player's side there (reversed for every player above without one), else white."""
    for tag, text in tournament.headers:
        if tag == "XXC":
            return B if text.strip().lower().startswith("black") else W
    first = min((i for p in tournament.players for i, g in enumerate(p.rounds) if g.colour in (W, B)), default=None)
    if first is None:
        return W
    flip = False
    for line in sorted(tournament.players, key=lambda p: p.number):
        if len(line.rounds) <= first:
            continue
        colour = line.rounds[first].colour
        if colour in (W, B):
            return (_other(colour) or W) if flip else colour
        flip = not flip
    return W


def played_rounds(tournament: trf.Tournament) -> int:
    """The rounds paired so far: the last round anybody was paired in (or had the PAB)."""
    last = 0
    for line in tournament.players:
        for i, g in enumerate(line.rounds, start=1):
            if g.opponent is not None or g.result.upper() in "U+":
                last = max(last, i)
    return last


def pair(tournament: trf.Tournament, round_number: int | None = None, *, points: Points = Points(),
         initial_colour: str | None = None, total_rounds: int | None = None) -> list[Pair]:
    """Round ``round_number``'s pairs (default: the first round not yet paired), boards in order.

    The rounds before it are the history; a player with an entry for this round (a
    half-point, full-point or zero-point bye declared in advance) is not paired.
    ``total_rounds`` (XXR, else the rounds in the file) tells the last round, where
    topscorers may break the absolute colour rule (C3)."""
    if round_number is None:
        round_number = played_rounds(tournament) + 1
    if total_rounds is None:
        declared = tournament.header("XXR")
        total_rounds = int(declared) if declared and declared.strip().isdigit() else max(
            round_number, max((len(p.rounds) for p in tournament.players), default=0))
    initial = initial_colour or first_round_colour(tournament)
    _, to_pair = _players(tournament, round_number, points)
    ordered = sorted(to_pair, key=lambda p: (-p.score, p.rank))
    if not ordered:
        return []
    if len(ordered) == 1:
        if not ordered[0].eligible_for_bye:
            raise DutchError("The only player to pair has had the bye already.")
        return [Pair(ordered[0].number, None, (Reason("bye", (ordered[0].number,), {"rule": "lowest"}),))]
    mate = _pairing(ordered, round_number - 1, total_rounds, points)
    pairs: list[tuple[_Player, _Player]] = []
    bye: _Player | None = None
    for v, player in enumerate(ordered):
        if v not in mate:
            bye = player
        elif v < mate[v]:
            other = ordered[mate[v]]
            lower, higher = (player, other) if player.number < other.number else (other, player)
            if _colour(lower, higher, initial) == W:
                pairs.append((lower, higher))
            else:
                pairs.append((higher, lower))
    # Boards: the higher player's score, the lower player's, the higher player's rank.
    def board(pair_: tuple[_Player, _Player]) -> tuple[float, float, int]:
        a, b = pair_
        high, low = (b, a) if _ranks_below(a, b) else (a, b)
        return (-high.score, -low.score, high.rank)

    pairs.sort(key=board)
    result = [Pair(white.number, black.number, _reasons(white, black)) for white, black in pairs]
    if bye is not None:
        result.append(Pair(bye.number, None, (Reason("bye", (bye.number,), {"rule": "lowest"}),)))
    return result


def _reasons(white: _Player, black: _Player) -> tuple[Reason, ...]:
    if white.score == black.score:
        return (Reason("score-group", (), {"points": white.score}),)
    high, low = (white, black) if white.score > black.score else (black, white)
    return (Reason("float", (high.number, low.number), {"from": high.score, "to": low.score, "why": "others"}),)


def pairs_of(pairs: Sequence[Pair]) -> list[tuple[int, int]]:
    """(white, black) per board, a bye as (n, 0): bbpPairings' output lines."""
    return [(p.white, p.black or 0) for p in pairs]
