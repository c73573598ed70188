"""TRF files from other programs: bbpPairings' reference tournaments (tests/league/data/dutch)
read, round-trip and pair every player once a round; what a file declares; before_round."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from league.formats import trf

DATA = Path(__file__).resolve().parents[1] / "data" / "dutch"
FILES = sorted(DATA.glob("*.trf"))


def test_the_reference_set_is_there_and_indexed():
    rows = {row["file"]: row for row in csv.DictReader((DATA / "index.csv").open())}
    assert len(FILES) >= 120 and set(rows) == {f.name for f in FILES}
    for name, row in rows.items():
        players, rounds, seed = map(int, re.fullmatch(r"\d{3}-n(\d+)-r(\d+)-s(\d+)\.trf", name).groups())
        assert (players, rounds, seed) == (int(row["PlayersNumber"]), int(row["RoundsNumber"]), int(row["seed"]))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name[:3])
def test_a_reference_file_reads_round_trips_and_pairs_everyone_once_a_round(path):
    text = path.read_text()
    t = trf.read(text)
    row_players, row_rounds = (int(x) for x in re.match(r"\d{3}-n(\d+)-r(\d+)", path.name).groups())
    assert len(t.players) == row_players and t.header("092") == "FIDE_DUTCH_2025"
    assert trf.read(trf.write(t)) == t
    assert trf.read(text.replace("\n", "\r")) == t  # as bbpPairings writes it: bare CR
    facts = trf.declared(t)
    assert facts.rounds == row_rounds and facts.initial_colour in ("w", "b")
    for player in t.players:  # the declared point system gives the points column
        assert trf.score(player.rounds, facts.points) == pytest.approx(player.points), player.number
    for number in range(1, facts.rounds + 1):
        pairs = trf.round_pairings(t, number, skip_absent=True)
        seen = [n for pair in pairs for n in pair if n is not None]
        absent = {p.number for p in t.players if trf.is_absence(p.rounds[number - 1])}
        assert len(seen) == len(set(seen)) and set(seen) | absent == {p.number for p in t.players}
        assert sum(black is None for _, black in pairs) == (len(seen) % 2)


def test_the_reference_set_has_forfeits_and_byes_in_most_files():
    kinds = [{g.result for p in trf.read(f.read_text()).players for g in p.rounds} for f in FILES]
    assert sum("+" in k or "-" in k for k in kinds) > len(FILES) // 2
    assert sum("H" in k for k in kinds) > len(FILES) // 2
    assert sum("Z" in k for k in kinds) > len(FILES) // 2


# A hand-written 5-player event, its 3 rounds: a pairing-allocated bye (U), a half-point
# bye (H), a forfeit (+/-), a zero-point bye (Z), a full-point bye (F) and a blank 0000.
# Player 1 sits out round 1, so the top player paired (2) had the initial colour: black1.
SAMPLE = """\
012 Hand made
001    1      Ana                                                                2.0    1  0000 - H     2 w =  0000 - U
001    2      Ben                                                                2.5    2     3 b 1     1 b =     4 b +
001    3      Cy                                                                 1.0    3     2 w 0     5 w 1  0000 - Z
001    4      Di                                                                 2.0    4     5 b 1  0000 - F     2 w -
001    5      Ed                                                                 0.0    5     4 w 0     3 b 0  0000 -
"""


def test_before_round_keeps_the_rounds_before_and_the_preset_absences():
    t = trf.read(SAMPLE)
    third = trf.before_round(t, 3)
    ana, ben, cy, di, ed = third.players
    assert ana.rounds == t.players[0].rounds[:2]  # the U is the pairer's output: dropped
    assert ben.rounds == t.players[1].rounds[:2]  # so is a forfeit: it was paired
    assert cy.rounds[2] == trf.Game(None, "-", "Z") and len(cy.rounds) == 3
    assert di.rounds == t.players[3].rounds[:2]
    assert ed.rounds[2] == trf.Game(None, "-", " ")  # 0000 with no result: absent, kept
    assert [p.points for p in third.players] == [1.0, 1.5, 1.0, 2.0, 0.0]  # recounted to round 2
    assert third.header("XXR") == "3" and third.header("XXC") == "black1"
    assert t.players[0].rounds[2].result == "U"  # the original is untouched
    second = trf.before_round(t, 2)
    assert second.players[3].rounds == [trf.Game(5, "b", "1"), trf.Game(None, "-", "F")]
    assert second.players[0].rounds == [trf.Game(None, "-", "H")]
    first = trf.before_round(t, 1)
    assert first.players[0].rounds == [trf.Game(None, "-", "H")]
    assert [len(p.rounds) for p in first.players[1:]] == [0, 0, 0, 0]
    assert trf.read(trf.write(first)) == first and trf.declared(first).initial_colour == "b"


def test_round_pairings_skips_absences_only_when_asked():
    t = trf.read(SAMPLE)
    assert trf.round_pairings(t, 3, skip_absent=True) == [(1, None), (4, 2)]
    assert trf.round_pairings(t, 1, skip_absent=True) == [(3, 2), (5, 4)]
    with pytest.raises(trf.TrfError, match="not paired in round 3"):
        trf.round_pairings(t, 3)


def test_declared_reads_rounds_colour_and_points_lines():
    plain = trf.declared(trf.read(SAMPLE))
    assert (plain.rounds, plain.initial_colour, plain.points) == (3, "b", trf.POINTS)
    t = trf.read("XXR 9\nXXC rank black1\n162  W 3.0    D 1.0    Z 0.5\n" + SAMPLE)
    facts = trf.declared(t)
    assert (facts.rounds, facts.initial_colour) == (9, "b")
    assert facts.points == {"win": 3.0, "draw": 1.0, "loss": 0.0, "forfeit_loss": 0.5, "zero_bye": 0.5,
                            "pab": 3.0}
    bb = trf.declared(trf.read("142 7\n152 W\nBBW 2.0\nBBD 1.0\nBBU 1.0\n" + SAMPLE))
    assert (bb.rounds, bb.initial_colour, bb.points["win"], bb.points["draw"], bb.points["pab"]) == (7, "w", 2, 1, 1)
    with pytest.raises(trf.TrfError, match="162"):
        trf.declared(trf.read("162  Q 1.0\n" + SAMPLE))
