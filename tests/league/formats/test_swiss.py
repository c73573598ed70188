"""Swiss pairing: FIDE-style first-move balance, no rematches, byes, floaters, sparse matching."""

from __future__ import annotations

import copy
import random

import networkx as nx
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from league.formats import swiss
from league.formats.swiss import (
    SwissTournament,
    colour_preference,
    pair_round,
    recommended_rounds,
    round_quality,
)


def _result(rnd: random.Random) -> tuple[float, float]:
    x = rnd.random()
    return (1.0, 0.0) if x < 0.4 else (0.0, 1.0) if x < 0.8 else (0.5, 0.5)


def _play_round(t: SwissTournament, rnd: random.Random):
    before = copy.deepcopy(t.players)
    pairings = t.pair_round()
    for p in pairings:
        if not p.is_bye:
            t.record(p, *_result(rnd))
    return before, pairings


def test_round_one_is_dutch_top_half_against_bottom_half():
    t = SwissTournament(list(range(1, 9)))
    assert [(p.first, p.second) for p in t.pair_round()] == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_colour_preferences():
    assert colour_preference([]) == (None, swiss.NONE)
    assert colour_preference(["X"]) == ("O", swiss.STRONG)
    assert colour_preference(["X", "O"]) == ("X", swiss.MILD)
    assert colour_preference(["O", "X", "X"]) == ("O", swiss.ABSOLUTE)  # twice running
    assert colour_preference(["X", "O", "O", "X", "O"]) == ("X", swiss.STRONG)
    assert colour_preference(["O", "X", "O", "O"]) == ("X", swiss.ABSOLUTE)


def test_recommended_rounds():
    assert [recommended_rounds(n) for n in (1, 2, 4, 8, 9, 100, 1000, 10000)] == [0, 1, 3, 5, 6, 9, 12, 16]


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=48), st.integers(min_value=0, max_value=10**6))
@example(8, 262143)  # no pairing keeps the colour rules in round 5
def test_event_rules_hold_every_round(n, seed):
    rnd = random.Random(seed)
    t = SwissTournament([f"p{i}" for i in range(n)])
    byes: dict[str, int] = {}
    for _ in range(recommended_rounds(n)):
        before, pairings = _play_round(t, rnd)
        seen = [p.first for p in pairings] + [p.second for p in pairings if p.second is not None]
        assert sorted(seen) == sorted(t.players)  # everyone paired exactly once
        assert sum(p.is_bye for p in pairings) == n % 2
        for p in pairings:
            if p.is_bye:
                byes[p.first] = byes.get(p.first, 0) + 1
        q = round_quality(before, pairings)
        assert q["rematches"] == 0
        if _colour_rules_can_hold(before, pairings):
            assert q["three_in_a_row"] == 0
            assert q["max_imbalance"] <= 2
    assert all(v == 1 for v in byes.values())  # at most one bye each


def _colour_rules_can_hold(players, pairings) -> bool:
    """Whether some pairing of this round's players (the bye as given) has no rematch, no
    side three times running and no imbalance over 2. Not always: 8 players, seed 262143
    (found by this test) leave none in round 5, and the engine relaxes the colour rule."""
    paired = [p.first for p in pairings if not p.is_bye] + [p.second for p in pairings if p.second is not None]

    def keeps(player, side: str) -> bool:
        seq = [*player.colours, side]
        return not (len(seq) >= 3 and len(set(seq[-3:])) == 1) and abs(seq.count("X") - seq.count("O")) <= 2

    g = nx.Graph()
    for i, a in enumerate(paired):
        for b in paired[i + 1 :]:
            pa, pb = players[a], players[b]
            if b not in pa.opponents and any(keeps(pa, s) and keeps(pb, t) for s, t in (("X", "O"), ("O", "X"))):
                g.add_edge(a, b)
    return 2 * len(nx.max_weight_matching(g, maxcardinality=True)) == len(paired)


def _exact_score_spread(players) -> tuple[int, int]:
    """The best possible (sum of squared half-point gaps, floaters) by one exact matching over all."""
    ps = list(players.values())
    g = nx.Graph()
    for i, a in enumerate(ps):
        for b in ps[i + 1 :]:
            (pa, sa), (pb, sb) = colour_preference(a.colours), colour_preference(b.colours)
            if b.id in a.opponents or (sa == sb == swiss.ABSOLUTE and pa == pb):
                continue
            gap = round(abs(a.score - b.score) * 2)
            g.add_edge(a.id, b.id, weight=10**6 - 1000 * gap * gap - (gap > 0))
    mate = nx.max_weight_matching(g, maxcardinality=True)
    gaps = [round(abs(players[a].score - players[b].score) * 2) for a, b in mate]
    return sum(x * x for x in gaps), sum(x > 0 for x in gaps)


def _block_round_five(n, seed):
    rnd = random.Random(seed)
    t = SwissTournament(list(range(n)))
    for _ in range(4):
        before, pairings = _play_round(t, rnd)
        q = round_quality(before, pairings)
        assert (q["rematches"], q["three_in_a_row"]) == (0, 0) and q["max_imbalance"] <= 2
    before, pairings = _play_round(t, rnd)
    gaps = [round(abs(before[p.first].score - before[p.second].score) * 2) for p in pairings]
    assert (sum(x * x for x in gaps), sum(x > 0 for x in gaps)) == _exact_score_spread(before)
    q = round_quality(before, pairings)
    assert q["floaters"] >= q["floaters_parity_minimum"]


# The block pairing floats as little as an exact matching in most rounds, not all: which
# player leaves a group is chosen without looking at the next group, so about 1 random
# round 5 in 60 (66-130 players) floats one more or further (docs/formats.md, "Known
# limits"). So the examples are fixed (derandomize); the known shortfalls are pinned below.
@settings(max_examples=6, deadline=None, derandomize=True)
@given(st.integers(min_value=66, max_value=130).filter(lambda n: n % 2 == 0), st.integers(0, 10**6))
def test_block_pairing_floats_as_little_as_an_exact_matching(n, seed):
    _block_round_five(n, seed)


@pytest.mark.xfail(strict=True, reason="no look-ahead: a floater the next group cannot pair (docs/formats.md)")
@pytest.mark.parametrize(("n", "seed"), [(66, 402327), (106, 854257), (126, 1824)])
def test_known_rounds_where_block_pairing_floats_more_than_needed(n, seed):
    _block_round_five(n, seed)


def test_bye_score_is_configurable_and_goes_to_the_bottom():
    t = SwissTournament(list(range(5)), bye_points=0.5)
    pairings = t.pair_round()
    bye = [p for p in pairings if p.is_bye]
    assert [b.first for b in bye] == [4] and [r.code for r in bye[0].reasons] == ["bye"]
    assert t.players[4].score == 0.5


def test_reasons_explain_floats_and_preferences():
    t = SwissTournament(list(range(6)))
    rnd = random.Random(3)
    _play_round(t, rnd)
    # Force a float: three winners (odd group) must send one down.
    pairings = t.pair_round()
    for p in pairings:
        a, b = t.players[p.first], t.players[p.second]
        codes = [r.code for r in p.reasons]
        if a.score != b.score:
            assert "float" in codes
        else:
            assert "float" not in codes and "score-group" in codes
        assert "first-move" in codes


def test_rematch_only_as_last_resort_and_flagged():
    # Two players who already met: the only possible pairing is a rematch.
    a, b = (
        swiss.SwissPlayer("a", 0, opponents={"b"}, colours=["X"]),
        swiss.SwissPlayer("b", 1, opponents={"a"}, colours=["O"]),
    )
    (p,) = pair_round([a, b])
    assert {p.first, p.second} == {"a", "b"}
    assert "rematch" in [r.code for r in p.reasons]


def test_absolute_preferences_decide_first_move():
    a = swiss.SwissPlayer("a", 0, score=2, colours=["X", "X"])  # must move second
    b = swiss.SwissPlayer("b", 1, score=2, colours=["X", "O"])
    (p,) = pair_round([a, b])
    assert (p.first, p.second) == ("b", "a")


def test_matching_graphs_stay_small(monkeypatch):
    # The pairing is sparse: no matching ever sees more than a block plus a few floaters.
    sizes: list[int] = []
    real = nx.max_weight_matching

    def spy(g, *args, **kwargs):
        sizes.append(g.number_of_nodes())
        return real(g, *args, **kwargs)

    monkeypatch.setattr(swiss.nx, "max_weight_matching", spy)
    t = SwissTournament(list(range(600)), block_size=32)
    rnd = random.Random(7)
    for _ in range(4):
        _play_round(t, rnd)
    sizes.clear()
    before, pairings = _play_round(t, rnd)
    assert len(sizes) >= 600 // 34 and max(sizes) <= 40
    assert round_quality(before, pairings)["rematches"] == 0


def test_record_rejects_unknown_or_repeated_results():
    t = SwissTournament(list(range(4)))
    p = t.pair_round()[0]
    t.record(p, 1, 0)
    with pytest.raises(ValueError):
        t.record(p, 0, 1)
    with pytest.raises(swiss.PairingError):
        t.pair_round()  # the other game has no result yet
