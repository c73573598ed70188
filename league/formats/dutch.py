"""FIDE (Dutch) System, C.04.3 as applied from 1 July 2025, with the basic rules
(C.04.1) and general handling rules (C.04.2) it rests on. Pure: no Django.

Input is a TRF-16 tournament (league.formats.trf): start numbers are pairing numbers,
``w`` moves first. ``pair(tournament, round_number)`` gives that round's pairs as
(white, black) start numbers, a pairing-allocated bye as (n, None).

How a round is paired. The rules rank candidate pairings by a list of criteria, most
important first; every criterion is a count (or a sum of scores) over the pairs, so
the whole list can be folded into one number per pair: each criterion gets its own
bit field, wide enough that no sum of lower fields reaches it, and the pairing that
maximises the sum of its pairs' numbers is the one the criteria prefer (the method
bbpPairings' author describes, after FIDE's 2017 "Pairing guidelines for programmers").
The fields, most important first (``_Weights.edge``):

1. compatibility (absolute criteria): no rematch of a game played over the board, no
   two players with the same absolute first-move preference (but topscorers in the
   last round); completion: every player paired but one at most, who may have the bye;
2. in the bracket being paired: the most pairs, then the highest scores paired;
3. in the next bracket: the same, so the floaters chosen leave it best pairable;
4. the bye to a player with the fewest unplayed games (C9, new in 2025);
5. first-move sides: absolute imbalances, absolute preferences (with the repeated-side
   tie rule), all preferences, strong preferences granted;
6. floats: players who floated down / up in the last round or the round before not
   floating the same way again, then the scores of those who do.

Brackets are paired from the top score down (``_Pairer``): one weighted maximum matching
over the players not yet paired gives the bracket's best criteria values; then the
choices the criteria leave open follow the order rules: which moved-down players are
paired and with whom, the fewest exchanges between S1 and S2 with the smallest
difference of numbers, and S1's players in order taking the first S2 player that keeps
the optimum (the transpositions). The matchings are exact, on integers hundreds of bits
wide (``matching.max_weight_matching``); the devices that make them affordable (a
bracket-sized region with a check below it, S1's choices in one matching) each carry
their figure.

Colours (``_colour``): both preferences if they differ, else the stronger one, else
alternate from the last round the two differed, else the higher-ranked player's
preference; players with no games yet follow the initial colour down the pairing
numbers. Where the rules leave a reading open, this module reads them as bbpPairings
does (docs/formats.md lists those readings), so an arbiter's check agrees.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from . import acceleration, matching, trf
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
    virtual: tuple[float, ...] = ()  # virtual points when pairing round 1, 2, ... (accelerated rounds)

    @property
    def absolute_imbalance(self) -> bool:
        return self.imbalance > 1

    @property
    def absolute(self) -> bool:
        return self.absolute_imbalance or self.repeated is not None

    def score_before(self, rounds_back: int) -> float:
        """The pairing score ``rounds_back`` rounds ago: the points then plus that round's
        virtual points (accelerated rounds; C.04.5)."""
        then = len(self.rounds) - rounds_back
        return sum(r.points for r in self.rounds[:then]) + (self.virtual[then] if then < len(self.virtual) else 0.0)


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


def _players(tournament: trf.Tournament, round_number: int, points: Points,
             virtual: acceleration.VirtualPoints) -> list[_Player]:
    """The players to pair this round, ranked by start number; ``everyone`` (all with a
    history, absent ones too) gives their opponents' scores for the floats. A player's
    ``score`` is the pairing score: points plus this round's virtual points, if any."""
    everyone: list[_Player] = []
    to_pair: list[_Player] = []
    for line in sorted(tournament.players, key=lambda p: p.number):
        history = [_history(g, line.number, points) for g in line.rounds[:round_number - 1]]
        history += [_Round(None, None, points.zero_bye, False, False)] * (round_number - 1 - len(history))
        player = _Player(line.number, rounds=history, virtual=virtual.get(line.number, ()))
        absent = len(line.rounds) >= round_number  # a preset bye or absence for this round
        if not absent or any(r.participated for r in history):
            player.rank = len(everyone)
            everyone.append(player)
        if not absent:
            to_pair.append(player)
    for player in everyone:
        player.score = player.score_before(0)
        player.opponents = {r.opponent for r in player.rounds if r.played and r.opponent is not None}
        player.eligible_for_bye = not any(
            not r.played and (r.points >= points.win or (r.participated and r.opponent is None))
            for r in player.rounds)
        _colour_data(player)
    by_number = {p.number: p for p in everyone}
    for player in everyone:
        player.floats = (_float(player, 1, by_number, points), _float(player, 2, by_number, points))
    return to_pair


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
        if not (low_in_bracket or low_in_next):
            # Every field below completion but the bye's is 0: the same number, built
            # without the field by field shifts (the bye group's weights for a whole
            # 1,000-player field: 0.5 s of the round's 4.5 s before).
            unplayed = 0
            if self.single_downfloater_is_bye:
                for p in (high, low):
                    unplayed += self.unplayed_rank[p.played_games] if p.score == self.bye_score else 0
            low_bits = self.low_bits
            return (w << low_bits) + (unplayed << (low_bits - 4 * S - 2 * G))
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
    """A maximum weight matching over the players not yet paired, re-solved as weights change.

    A pair's weight is the one last ``set``, else ``fallback(a, b)``: the weight of two
    players outside the bracket being paired (``_Weights.edge``'s last case). Those are
    computed only when a matching needs them (the matching over everybody, a rare last
    resort); the bracket's own are set as it is paired. Storing every pair's weight up
    front took 0.5 million weights for 1,000 players, and ran out of memory at 10,000."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.weights: dict[tuple[int, int], int] = {}  # (a, b), a < b: the weights set, 0 included
        self.fallback: Callable[[int, int], int] = lambda a, b: 0
        self.fallback_shift = 0  # the ``scale`` bits since the fallback was given
        self.mate: list[int] = list(range(size))
        self.fixed: dict[int, int] = {}
        self.region_end: int | None = None  # the players from here on are not in play yet
        self.bracket_end: int | None = None  # the bracket's players are all below this
        self.low_bits = 0  # the bits below the completion field
        self.bye_candidate: Callable[[int], bool] = lambda v: True

    def set(self, a: int, b: int, weight: int) -> None:
        key = (a, b) if a < b else (b, a)
        if a not in self.fixed and b not in self.fixed:
            self.weights[key] = weight
        else:
            self.weights.pop(key, None)

    def weight(self, a: int, b: int) -> int:
        if a in self.fixed or b in self.fixed:
            return 0
        key = (a, b) if a < b else (b, a)
        w = self.weights.get(key)
        if w is None:
            w = self.fallback(*key)
            w = w << self.fallback_shift if self.fallback_shift >= 0 else w >> -self.fallback_shift
        return w

    def solve(self) -> list[int]:
        """The optimum: found on the bracket alone when it pairs up inside, else on the
        bracket and the next group, with a check each time that the players below can
        still all be paired (``_solve_region``); else on everybody."""
        if self.region_end is not None:
            for end in (self.bracket_end, self.region_end):
                mate = self._solve_region(end, whole=end == self.bracket_end) if end else None
                if mate is not None:
                    self.mate = mate
                    return mate
        return self.solve_over(((a, b), self.weight(a, b)) for b in range(self.size) for a in range(b))

    def solve_over(self, edges: Iterable[tuple[tuple[int, int], int]]) -> list[int]:
        """The optimum over ``edges`` alone (none touches a fixed player), kept as the matching."""
        self.mate = self._matching(edges)
        return self.mate

    def _matching(self, edges: Iterable[tuple[tuple[int, int], int]]) -> list[int]:
        """The fixed pairs, and an optimum over ``edges`` (none touches a fixed player)."""
        mate = matching.max_weight_matching(self.size, ((a, b, w) for (a, b), w in edges if w))
        for a, b in self.fixed.items():
            mate[a] = b
        return mate

    def _solve_region(self, end: int, *, whole: bool = False) -> list[int] | None:
        """Every weight below ``end`` past the completion field is 0: the players from ``end``
        on only have to be pairable. So the best matching of the region without that field,
        if what it leaves over can be paired with the players below, is the optimum; else
        None. With ``whole`` (the region is the bracket): only if it pairs everybody in it,
        for then no choice of floaters is left to the next group's fields. (Every pair of
        players in play below ``end`` is the bracket's or the next group's: its weight is set.)

        Measured: a 92-player event, 9 rounds, 42 s with one matching over everybody per
        decision, 4.8 s on the bracket and the next group, with the same pairings; the
        bracket alone first: a 1,000-player round 5, 66 s of CPU against 202 s (networkx's
        matcher). With the native matcher, that round: 4.0 s, against 26.2 s with every
        matching over everybody."""
        if whole and (end - sum(1 for v in self.fixed if v < end)) % 2:
            return None  # an odd bracket floats somebody
        low = (1 << self.low_bits) - 1
        mate = self._matching((((a, b), w & low) for (a, b), w in self.weights.items() if b < end))
        left = [v for v in range(end) if mate[v] == v and v not in self.fixed]
        if whole and left:
            return None
        return mate if self.pairs_up(left + list(range(end, self.size)), mate) else None

    def pairs_up(self, free: list[int], mate: list[int]) -> bool:
        """Pair ``free`` greedily in order (into ``mate``): True if all are paired but at most one,
        who may take the bye. A witness only: False proves nothing."""
        free = list(free)
        while len(free) > 1:
            a = free.pop(0)
            for k, b in enumerate(free):
                if self.weight(a, b):
                    mate[a], mate[b] = b, a
                    del free[k]
                    break
            else:
                return False
        return not free or self.bye_candidate(free[0])

    def scale(self, bits: int) -> None:
        """Every weight times 2**bits (or divided, bits < 0), to make room below them."""
        if bits >= 0:
            self.weights = {k: w << bits for k, w in self.weights.items()}
        else:
            self.weights = {k: w >> -bits for k, w in self.weights.items()}
        self.fallback_shift += bits
        self.low_bits += bits

    def fix(self, a: int, b: int) -> None:
        """Keep a and b together: they leave the graph."""
        for v in (a, b):
            for u in range(self.size):
                self.weights.pop((u, v) if u < v else (v, u), None)
        self.fixed[a], self.fixed[b] = b, a


class _Pairer:
    """One round's matching, bracket by bracket (see the module docstring). Vertices are
    the players' indices in ``players`` (ordered by score, then rank)."""

    def __init__(self, players: list[_Player], played_rounds: int, total_rounds: int, points: Points) -> None:
        self.players = players
        self.weights = _Weights(players, played_rounds, total_rounds, points.win)
        self.matcher = _Matcher(len(players))
        self.matched = [False] * len(players)
        self.result: dict[int, int] = {}
        # The bracket being paired: its vertices (moved-down players first), then the next group's.
        self.bracket: list[int] = []
        self.base: list[list[int]] = []  # base[hi][lo]: the weight of bracket[lo] v bracket[hi]
        self.size = 0  # the bracket's players; the next score group follows them in ``bracket``
        self.movers = 0  # moved-down players at the head of ``bracket``
        self.first_vertex = 0  # the vertex of the bracket's first resident
        self.next_vertex = 0  # the vertex of the next group's first player

    @property
    def mate(self) -> list[int]:
        return self.matcher.mate

    def run(self) -> dict[int, int]:
        """{vertex: mate vertex}; the vertex left out, if any, has the bye."""
        self._bye_group()
        players, n = self.players, len(self.players)
        nxt = 0
        while nxt < n and players[nxt].score >= players[0].score:
            self.bracket.append(nxt)
            nxt += 1
        while len(self.bracket) > 1 or nxt < n:
            self.size = len(self.bracket)
            self.next_vertex = self.first_vertex + (self.size - self.movers)
            group_start = nxt
            while nxt < n and players[nxt].score >= players[group_start].score:
                self.bracket.append(nxt)
                nxt += 1
            self.matcher.region_end = None if self.weights.single_downfloater_is_bye else nxt
            self.matcher.bracket_end = self.next_vertex if group_start < n else None
            self._pair_bracket()
            self._next_bracket(group_start)
        return self.result

    def _bye_group(self) -> None:
        """C4/C5 first: whether all can be paired, and the score group the bye comes from (the
        lowest that can give it): one matching over everybody, but for an even field that a
        greedy pairing pairs up. (A greedy witness for an odd field's bye group saved 24 s of
        a 300-player round's 37 s with networkx's matcher; with the native one it saved
        nothing: 50.0 s against 50.2 s over the reference set, so it went.)"""
        players, weights, matcher, n = self.players, self.weights, self.matcher, len(self.players)
        top = players[0].score
        matcher.fallback = lambda a, b: weights.edge(players[a], players[b], False, False)
        bye: _Player | None = None
        if n % 2 or not matcher.pairs_up(list(range(n)), list(range(n))):
            if n % 2:
                mate = matcher.solve_over(((j, i), self._bye_weight(players[j], players[i], top))
                                          for i in range(n) for j in range(i))
            else:
                mate = matcher.solve()
            unmatched = [v for v in range(n) if mate[v] == v]
            if len(unmatched) > 1 or (unmatched and not players[unmatched[0]].eligible_for_bye):
                raise DutchError("No pairing satisfies the absolute criteria: no rematches, no bye twice, "
                                 "no two players who must both move first (or second).")
            if n % 2:
                bye = players[unmatched[0]]
                weights.single_downfloater_is_bye = bye.score >= top and all(
                    players[mate[v]].score >= top for v in range(n) if players[v].score >= top)
        if bye is not None:
            weights.bye_score = bye.score
            counts = sorted((p.played_games for p in players if p.score == bye.score), reverse=True)
            for rank, count in enumerate(counts):
                weights.unplayed_rank[count] = rank
        matcher.low_bits = weights.low_bits
        matcher.bye_candidate = lambda v: weights.bye_candidate(players[v])

    def _bye_weight(self, high: _Player, low: _Player, top: float) -> int:
        """The bye matching's weight: compatible; then fewest players who may not have the bye
        paired; then the lowest scores paired (the bye from the lowest group); then the
        topscorers all paired."""
        weights = self.weights
        if not weights.compatible(low, high):
            return 0
        w = 1 + (not low.eligible_for_bye) + (not high.eligible_for_bye)
        w = (w << weights.groups_bits) | (weights.shift[low.score] + weights.shift[high.score])
        return (w << weights.group_bits) | (low.score >= top)

    def _in_bracket(self, v: int) -> bool:
        return self.first_vertex <= self.mate[v] < self.next_vertex

    def _downward(self, v: int) -> bool:
        """Paired in the bracket with a lower player: v is in S1."""
        return v < self.mate[v] < self.next_vertex

    def _ordered(self, lo: int, hi: int, lo_position: int, pairs: int) -> int:
        """The weight with the exchange rules (4.3): fewest exchanges, smallest difference."""
        w = self.base[hi][lo]
        if w:
            w += ((int(lo_position < pairs) << (2 * self.weights.group_bits)) - lo_position) << 1
        return w

    def _pair_bracket(self) -> None:
        bracket, matcher, players = self.bracket, self.matcher, self.players
        self.base = [[] for _ in bracket]
        for hi in range(self.movers, len(bracket)):
            self.base[hi] = [self.weights.edge(players[bracket[lo]], players[bracket[hi]], hi < self.size,
                                               hi >= self.size) for lo in range(hi)]
            for lo, w in enumerate(self.base[hi]):
                matcher.set(bracket[hi], bracket[lo], w)
        matcher.solve()
        self._choose_moved_down()
        self._pair_moved_down()
        remainder = [i for i in range(self.movers, self.size) if self.mate[bracket[i]] >= self.first_vertex]
        pairs = sum(1 for i in remainder if self.mate[bracket[i]] < bracket[i])
        if not self._pair_without_exchanges(remainder, pairs):
            self._choose_exchanges(remainder, pairs)
            self._pair_s1(remainder)

    def _pair_without_exchanges(self, remainder: list[int], pairs: int) -> bool:
        """The remainder's pairing with the exchange rules' weights and, below them, S1's
        choices (as ``_pair_s1``) in one matching. If it needs no exchange, it is the
        pairing (True); else the matching is left with the exchange rules' weights for
        ``_choose_exchanges`` (False). Measured with networkx's matcher: a 300-player
        round 4, 6.2 s with the exchange rules and S1's choices in two matchings, 4.8 s in one."""
        bracket, base, matcher = self.bracket, self.base, self.matcher
        s2 = remainder[pairs:]
        choices = {lo: [hi for hi in s2 if base[hi][lo]] for lo in remainder[:pairs]}
        for first, (room, fields) in enumerate(self._choice_fields(remainder[:pairs], choices)):
            matcher.scale(room)
            for a, lo in enumerate(remainder):
                preferred = fields.get(lo, {})
                for hi in remainder[a + 1:]:
                    w = self._ordered(lo, hi, a, pairs)
                    matcher.set(bracket[lo], bracket[hi], (w << room) + preferred.get(hi, 0) if w else 0)
            matcher.solve()
            # Whether an exchange is needed is the criteria's (every optimum of them agrees),
            # so the first matching tells.
            if first == 0 and not all(self._downward(bracket[lo]) and self.mate[bracket[lo]] in {bracket[hi] for hi in s2}
                                      for lo in remainder[:pairs]):
                matcher.scale(-room)
                return False
            self._fix_choices(fields)
            matcher.scale(-room)
        return True

    def _choose_moved_down(self) -> None:
        """2.3.1: which moved-down players are paired, the highest first."""
        bracket, base, matcher, players = self.bracket, self.base, self.matcher, self.players
        left = can = 0
        group_score: float | None = None
        for i in range(self.movers):
            v = bracket[i]
            if group_score is None or players[v].score < group_score:
                group_score = players[v].score
                left = can = 0
                k = i
                while k < len(bracket) and players[bracket[k]].score >= group_score:
                    left += 1
                    can += self._in_bracket(bracket[k])
                    k += 1
            if not can:
                continue
            if left <= can:
                self.matched[v] = True
                continue
            left -= 1
            if not self._in_bracket(v):
                for opp in range(self.movers, self.size):
                    if base[opp][i]:
                        matcher.set(v, bracket[opp], base[opp][i] | 1)
                matcher.solve()
            if self._in_bracket(v):
                self.matched[v] = True
                can -= 1
                for opp in range(self.movers, self.size):
                    if base[opp][i]:
                        matcher.set(v, bracket[opp], (base[opp][i] | (self.size - self.movers)) + 1)

    def _pair_moved_down(self) -> None:
        """Each moved-down player chosen, in order, meets the highest resident the optimum allows."""
        bracket, base = self.bracket, self.base
        for i in range(self.movers):
            if self.matched[bracket[i]]:
                residents = [opp for opp in range(self.movers, self.size) if not self.matched[bracket[opp]]]
                self._take_first(bracket[i], [(bracket[opp], base[opp][i]) for opp in residents],
                                 bonus=len(bracket))

    def _choose_exchanges(self, remainder: list[int], pairs: int) -> None:
        """4.3: the fewest exchanges between S1 (the first ``pairs``) and S2, S1's lowest and
        S2's highest players first; only S1 -> S2 edges are left, at their base weights."""
        bracket, base, matcher = self.bracket, self.base, self.matcher
        exchanges = sum(1 for i in remainder[:pairs] if not self._downward(bracket[i]))
        remaining = exchanges
        position = pairs
        while position > 0 and remaining:
            position -= 1
            lo = remainder[position]
            v = bracket[lo]
            if self._downward(v):
                for hi in remainder[position + 1:]:
                    w = self._ordered(lo, hi, position, pairs)
                    if w:
                        matcher.set(v, bracket[hi], w - 1)
                matcher.solve()
            exchange = not self._downward(v)
            remaining -= exchange
            for hi in remainder[position + 1:]:
                if exchange:
                    base[hi][lo] = 0
                matcher.set(v, bracket[hi], self._ordered(lo, hi, position, pairs))
        remaining = exchanges
        for position in range(pairs, len(remainder)):
            if remaining <= 1:
                break
            player = remainder[position]
            v = bracket[player]
            already = self._downward(v)
            if not already:
                for other in remainder[position + 1:]:
                    w = self._ordered(player, other, position, pairs)
                    if w:
                        matcher.set(v, bracket[other], w + 1)
                matcher.solve()
            if self._downward(v):
                remaining -= 1
                for other in remainder[:position]:
                    base[player][other] = 0
                    matcher.set(v, bracket[other], 0)
                for other in range(self.size, len(bracket)):
                    base[other][player] = 0
                    matcher.set(v, bracket[other], 0)
            if not already:
                for other in remainder[position + 1:]:
                    matcher.set(v, bracket[other], self._ordered(player, other, position, pairs))
        for a, lo in enumerate(remainder):
            for hi in remainder[a + 1:]:
                if not self._downward(bracket[lo]) or self._downward(bracket[hi]):
                    base[hi][lo] = 0
                matcher.set(bracket[lo], bracket[hi], base[hi][lo])

    def _pair_s1(self, remainder: list[int]) -> None:
        """4.2: S1's players in order, each taking the first S2 player that keeps the optimum.

        In one matching: below every weight, each S1 player gets a field ranking its S2
        players (the first the highest), the first S1 player's field the highest, so the
        optimum is the first such choice for the first player, then for the second, and
        so on. Measured with networkx's matcher: a 300-player round 2 took 34 s with one
        matching per S1 player (48 of 150 needed one), 20 s this way."""
        bracket, base, matcher = self.bracket, self.base, self.matcher
        s1 = [lo for lo in remainder if self._downward(bracket[lo])]
        choices = {lo: [hi for hi in remainder if hi > lo and base[hi][lo]] for lo in s1}
        for room, fields in self._choice_fields(s1, choices):
            matcher.scale(room)
            for lo, preferred in fields.items():
                for hi, value in preferred.items():
                    matcher.set(bracket[lo], bracket[hi], (base[hi][lo] << room) + value)
            matcher.solve()
            self._fix_choices(fields)
            matcher.scale(-room)

    def _choice_fields(self, s1: list[int], choices: dict[int, list[int]]) -> Iterator[tuple[int, dict[int, dict[int, int]]]]:
        """S1's choice fields, as few matchings as the matcher's width allows: (room, {S1 player:
        {S2 player: field}}) for each, the fields below ``room`` bits, the first player's the
        highest. In turn, each matching's S1 players fixed before the next: the same
        lexicographic optimum as in one matching. Several are needed from about 350-400 S1
        players in a bracket (the native matcher takes 4,096 bits): fields of 3,000-4,000."""
        budget = self._field_budget()
        chunk: list[int] = []
        room = 0
        for lo in s1:
            bits = _bits(len(choices[lo]) + 1)
            if chunk and budget is not None and room + bits > budget:
                yield self._fields(chunk, choices, room)
                chunk, room = [], 0
            chunk.append(lo)
            room += bits
        yield self._fields(chunk, choices, room)

    @staticmethod
    def _fields(chunk: list[int], choices: dict[int, list[int]], room: int) -> tuple[int, dict[int, dict[int, int]]]:
        fields: dict[int, dict[int, int]] = {}
        shift = room
        for lo in chunk:
            shift -= _bits(len(choices[lo]) + 1)
            fields[lo] = {hi: (len(choices[lo]) - rank) << shift for rank, hi in enumerate(choices[lo])}
        return room, fields

    def _field_budget(self) -> int | None:
        """The bits left below the weights in one matching (None: no limit)."""
        widest = matching.widest(self.matcher.size)
        if widest is None:
            return None
        top = max((w.bit_length() for w in self.matcher.weights.values()), default=0)
        return widest - max(top, self.matcher.low_bits + 3)  # + 3: the completion field's width

    def _fix_choices(self, fields: dict[int, dict[int, int]]) -> None:
        for lo in fields:
            v = self.bracket[lo]
            self.matched[v] = self.matched[self.mate[v]] = True
            self.matcher.fix(v, self.mate[v])

    def _take_first(self, v: int, candidates: list[tuple[int, int]], *, bonus: int) -> None:
        """Pair v with the first of ``candidates`` (vertex, weight) that some optimum pairs it
        with: re-solved with the weights raised in that order (the first the most)."""
        matcher = self.matcher
        for u, w in reversed(candidates):
            if w:
                matcher.set(v, u, w + bonus)
                bonus += 1
        matcher.solve()
        mate = self.mate[v]
        self.matched[v] = self.matched[mate] = True
        matcher.fix(v, mate)

    def _next_bracket(self, group_start: int) -> None:
        """The pairs made are kept; whoever is still free moves down to the next bracket."""
        players, weights = self.players, self.weights
        n = len(players)
        following: list[int] = []
        self.movers = 0
        single = bool(n % 2) and group_start < n and weights.bye_score >= players[group_start].score
        for i, v in enumerate(self.bracket):
            if i < self.size and self.matched[v]:
                self.result[v] = self.mate[v]
                self.result[self.mate[v]] = v
            else:
                following.append(v)
                if i < self.size:
                    self.movers += 1
                if single and players[self.mate[v]].score < players[group_start].score:
                    single = False
        weights.single_downfloater_is_bye = single
        self.bracket = following
        self.first_vertex = self.next_vertex


def _first_colour(player: _Player, opponent: _Player) -> tuple[str | None, str, int]:
    """5.2.1-5.2.4: (the side ``player`` gets against ``opponent``, the rule, the round the
    two last differed); the side is None when it goes by rank (5.2.5)."""
    p, o = player.preference, opponent.preference
    if p != o or p is None or o is None:
        return (p if p is not None else _other(o)), "preferences", 0
    if player.absolute and (player.imbalance > opponent.imbalance or not opponent.absolute):
        return p, "stronger", 0
    if opponent.absolute and (opponent.imbalance > player.imbalance or not player.absolute):
        return _other(o), "stronger", 0
    if player.strong and not opponent.strong:
        return p, "stronger", 0
    if opponent.strong and not player.strong:
        return _other(o), "stronger", 0
    played = [number for number, r in enumerate(player.rounds, start=1) if r.played]
    for back, (mine, theirs) in enumerate(zip(reversed(player.colours), reversed(opponent.colours))):
        if mine != theirs:
            return theirs, "alternate", played[len(played) - 1 - back]  # alternate from then
    return None, "rank", 0


def _ranks_below(a: _Player, b: _Player) -> bool:
    return (a.score, b.rank) < (b.score, a.rank)


def _colour(player: _Player, opponent: _Player, initial: str) -> tuple[str, str, int]:
    """(the side ``player`` gets, the rule, the round for "alternate"); as bbpPairings, the
    player is the one with the lower start number."""
    colour, rule, since = _first_colour(player, opponent)
    if colour is not None:
        return colour, rule, since
    if player.preference is None:  # neither has played: the initial colour, by rank
        if _ranks_below(player, opponent):
            return (initial if opponent.rank % 2 else _other(initial) or W), "initial", 0
        return ((_other(initial) or W) if player.rank % 2 else initial), "initial", 0
    return ((_other(opponent.preference) or W) if _ranks_below(player, opponent) else player.preference), "rank", 0


def pair(tournament: trf.Tournament, round_number: int | None = None, *, points: Points | None = None,
         initial_colour: str | None = None, total_rounds: int | None = None) -> list[Pair]:
    """Round ``round_number``'s pairs (default: the first round nobody has been paired in),
    boards in published order, the bye last.

    The rounds before it are the history; a player with an entry for this round (a
    half-point, full-point or zero-point bye declared in advance) is not paired. The
    points, the total rounds (the last round lets topscorers break the absolute colour
    rule, C3) and the initial colour ("w"/"b") are the file's (``trf.declared``) unless given."""
    facts = trf.declared(tournament)
    if round_number is None:
        round_number = trf.next_round(tournament)
    points = points or Points(**facts.points)
    total_rounds = total_rounds or max(round_number, facts.rounds)
    initial = initial_colour or facts.initial_colour or W
    to_pair = _players(tournament, round_number, points, facts.virtual_points)
    ordered = sorted(to_pair, key=lambda p: (-p.score, p.rank))
    if not ordered:
        return []
    mate = _unplayed_field(ordered)
    if mate is None:
        mate = _Pairer(ordered, round_number - 1, total_rounds, points).run() if len(ordered) > 1 else {}
    by_number = {p.number: p for p in ordered}
    pairs: list[tuple[int, int | None]] = []
    colour_reason: dict[int, Reason] = {}
    for v, player in enumerate(ordered):
        if v not in mate:
            if not player.eligible_for_bye:
                raise DutchError(f"Only start number {player.number} is left, and they cannot have the bye again.")
            pairs.append((player.number, None))
        elif v < mate[v]:
            other = ordered[mate[v]]
            lower, higher = (player, other) if player.number < other.number else (other, player)
            colour, rule, since = _colour(lower, higher, initial)
            white, black = (lower, higher) if colour == W else (higher, lower)
            pairs.append((white.number, black.number))
            colour_reason[white.number] = _colour_reason(white, black, rule, since, initial)
    return [Pair(white, black, _reasons(ordered, by_number[white], by_number[black], colour_reason[white])
                 if black else (_bye_reason(ordered, by_number[white]),))
            for white, black in trf.published_order(pairs, tournament, round_number)]


def _unplayed_field(ordered: list[_Player]) -> dict[int, int] | None:
    """A field nobody of which has a round behind them, on one score (a first round not
    accelerated): every criterion is met by the rules' first candidate, so it is the
    pairing: the lowest-ranked player has the bye if the field is odd (C9: all have the
    same unplayed rounds), the top half meets the bottom half in order. The matchings
    find the same (``tests/league/formats/test_dutch.py``); a 600-player first round took
    10.6 s of CPU through them, on a machine an outside probe found an organiser's "start
    now" waiting 45 s on."""
    if any(p.rounds or p.score != ordered[0].score or not p.eligible_for_bye for p in ordered):
        return None
    half = len(ordered) // 2
    mate = {}
    for v in range(half):
        mate[v], mate[v + half] = v + half, v
    return mate


def _strength(p: _Player) -> int:
    return 3 if p.absolute else 2 if p.strong else 1 if p.preference else 0


def _colour_reason(white: _Player, black: _Player, rule: str, since: int, initial: str) -> Reason:
    """The first-move rule applied, in explain's terms (``explain.text`` says it)."""
    def rounds(p: _Player, side: str) -> list[int]:
        return [number for number, r in enumerate(p.rounds, start=1) if r.colour == side]

    data: dict[str, object] = {
        "rule": rule, "x": [rounds(white, W), rounds(black, W)], "o": [rounds(white, B), rounds(black, B)],
        "strength": [_strength(white), _strength(black)]}
    if rule == "preferences":
        data["prefers"] = [white.preference == W, black.preference == B]
    elif rule in ("stronger", "alternate", "rank"):
        data.update(side="first" if white.preference == W else "second", round=since,
                    winner=0 if (white.preference == W) else 1)
    else:  # "initial": neither has played yet
        higher = white if _ranks_below(black, white) else black
        data.update(initial=initial, rank=higher.rank + 1, higher=0 if higher is white else 1)
    return Reason("first-move", (white.number, black.number), data)


def _reasons(ordered: list[_Player], white: _Player, black: _Player, colour: Reason) -> tuple[Reason, ...]:
    """Why these two meet (their score group, or who floated and why; a meeting before that
    was only a forfeit) and who moves first."""
    # Pairing scores that hold an accelerated round's virtual points say so.
    virtual = {"virtual": True} if any(p.score != sum(r.points for r in p.rounds) for p in (white, black)) else {}
    if white.score == black.score:
        why = Reason("score-group", (), {"points": white.score, **virtual})
    else:
        high, low = (white, black) if white.score > black.score else (black, white)
        why = _float_reason(ordered, high, low, virtual)
    forfeits = [n for n, r in enumerate(white.rounds, start=1) if r.opponent == black.number and not r.played]
    if forfeits:
        return why, Reason("met-by-forfeit", (white.number, black.number), {"rounds": forfeits}), colour
    return why, colour


def _float_reason(ordered: list[_Player], high: _Player, low: _Player, virtual: dict[str, bool]) -> Reason:
    """Why ``high`` floated down to ``low``: an odd count at and above its score; else, when
    every group-mate was one it may not meet (a game played before, C1; both with an
    absolute preference for the same side, C3), the first of them; else the rest of the
    group's pairing (the quality criteria chose it)."""
    data: dict[str, object] = {"from": high.score, "to": low.score, **virtual}
    if sum(1 for p in ordered if p.score >= high.score) % 2:
        return Reason("float", (high.number, low.number), {**data, "why": "odd"})
    mates = [p for p in ordered if p.score == high.score and p is not high]
    met = [p for p in mates if p.number in high.opponents]
    clash = [p for p in mates if p not in met and p.absolute and high.absolute and p.preference == high.preference]
    if mates and len(met) + len(clash) == len(mates):
        blocked, why = (met[0], "rematch") if met else (clash[0], "first-move")
        return Reason("float", (high.number, low.number, blocked.number), {**data, "why": why})
    return Reason("float", (high.number, low.number), {**data, "why": "others"})


def _bye_reason(ordered: list[_Player], bye: _Player) -> Reason:
    """Why ``bye`` has the pairing-allocated bye: the lowest-ranked player of the lowest
    score group (``lowest``), or the lowest-ranked eligible one when every player ranked
    below has had a bye or a forfeit win (``lowest-eligible``, C.04.1 d); a higher score, because the players
    below could not all be paired otherwise (``moved-up``, C5); in that group, but a
    lower-ranked player has played fewer games (``fewest-unplayed``, C9: the bye goes to
    the fewest unplayed games, and that player is named); else the group's other players
    pair better without this one (``group``: the quality criteria, first moves and floats)."""
    eligible = [p for p in ordered if p.eligible_for_bye]
    if bye.score > min(p.score for p in eligible):
        return Reason("bye", (bye.number,), {"rule": "moved-up"})
    below = [p for p in eligible if p.score == bye.score and p.rank > bye.rank]
    if not below:
        if ordered[-1] is not bye:  # every player ranked below (lower groups too) may not have it
            return Reason("bye", (bye.number,), {"rule": "lowest-eligible", "forfeits": True})
        return Reason("bye", (bye.number,), {"rule": "lowest"})
    if below[-1].played_games < bye.played_games:
        return Reason("bye", (bye.number, below[-1].number), {"rule": "fewest-unplayed"})
    return Reason("bye", (bye.number,), {"rule": "group"})


def pairs_of(pairs: Sequence[Pair]) -> list[tuple[int, int]]:
    """(white, black) per board, a bye as (n, 0): bbpPairings' output lines."""
    return [(p.white, p.black or 0) for p in pairs]
