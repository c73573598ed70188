"""FIDE tie-breaks on a small event worked out by hand."""

from __future__ import annotations

import pytest

from league.formats.tiebreaks import RoundResult as R
from league.formats.tiebreaks import standings, value

# Four players, three rounds; D has a bye in round 3 (worth 1) and C is unpaired (0).
#   R1: A 1-0 B, C 0.5-0.5 D     R2: A 0.5-0.5 C, B 1-0 D     R3: A 0-1 B, D bye, C absent
EVENT = {
    "A": [R("B", 1), R("C", 0.5), R("B", 0)],
    "B": [R("A", 0), R("D", 1), R("A", 1)],
    "C": [R("D", 0.5), R("A", 0.5), R(None, 0, played=False)],
    "D": [R("C", 0.5), R("B", 0), R(None, 1, played=False)],
}
# Scores: A 1.5, B 2, C 1, D 1.5


def score():
    return {p: sum(r.points for r in rs) for p, rs in EVENT.items()}


def test_buchholz_2023_counts_own_score_for_unplayed_rounds():
    s = score()
    assert value("buchholz", "A", EVENT, s) == 2 + 1 + 2
    assert value("buchholz", "D", EVENT, s) == 1 + 2 + 1.5  # bye round: a dummy with D's own 1.5
    assert value("buchholz", "C", EVENT, s) == 1.5 + 1.5 + 1  # unplayed: C's own 1


def test_cuts_remove_unplayed_contributions_first():
    s = score()
    # D: contributions 1 (C), 2 (B), 1.5 (dummy): Cut-1 removes the dummy, not the lower 1.
    assert value("buchholz-cut1", "D", EVENT, s) == 1 + 2
    assert value("buchholz-cut1", "A", EVENT, s) == 2 + 2
    assert value("median-buchholz", "A", EVENT, s) == 2


def test_virtual_opponent_rule():
    s = score()
    # D's round 3 (n = 3, R = 3): Svon = SPR + (1 - SfPR) + 0.5 (n - R) = 0.5 + 0 + 0 = 0.5
    assert value("buchholz", "D", EVENT, s, unplayed="virtual-opponent") == 1 + 2 + 0.5
    # C's round 3: 1 + (1 - 0) + 0 = 2
    assert value("buchholz", "C", EVENT, s, unplayed="virtual-opponent") == 1.5 + 1.5 + 2


def test_sonneborn_berger_and_wins():
    s = score()
    assert value("sonneborn-berger", "A", EVENT, s) == 2 * 1 + 1 * 0.5 + 2 * 0
    assert value("sonneborn-berger", "D", EVENT, s) == 1 * 0.5 + 2 * 0 + 1.5 * 1
    assert value("wins", "B", EVENT, s) == 2
    assert value("wins", "D", EVENT, s) == 0  # a bye is not a game won


def test_direct_encounter_only_when_all_tied_players_met():
    s = score()
    assert value("direct-encounter", "A", EVENT, s, tied={"A", "B"}) == 1
    assert value("direct-encounter", "A", EVENT, s, tied={"A", "D"}) == 0  # A and D never met


def test_standings_apply_tiebreaks_in_the_organisers_order():
    table = standings(EVENT, order=["buchholz-cut1", "sonneborn-berger"])
    assert [row.player for row in table] == ["B", "A", "D", "C"]
    assert [row.rank for row in table] == [1, 2, 3, 4]
    assert table[1].tiebreaks["buchholz-cut1"] == 4
    # Another order, another result for the A/D tie: direct encounter cannot split them, wins can.
    table = standings(EVENT, order=["direct-encounter", "wins"])
    assert [row.player for row in table][1:3] == ["A", "D"]


def test_full_ties_share_a_rank():
    event = {"A": [R("B", 0.5)], "B": [R("A", 0.5)]}
    table = standings(event, order=["direct-encounter", "buchholz"])
    assert [row.rank for row in table] == [1, 1]


def test_unknown_tiebreak_is_refused():
    with pytest.raises(ValueError):
        standings(EVENT, order=["coin-toss"])
