"""FIDE TRF-16: written, read back identical, and hand-written samples read right."""

from __future__ import annotations

import pytest

from league.formats import trf

# A 5-player, 3-round Swiss written by hand from the FIDE spec (columns as in TRF-16):
# a pairing-allocated bye (U), a half-point bye (H), a forfeit (+/-), a zero-point bye
# (Z), a full-point bye (F) and an unplayed last round for player 5 (0000 blank = Z).
SAMPLE = """\
012 Autumn Open
042 2026/10/01
062 5
XXR 3
### w moves first
001    1 m GM Ana Aalto                         2400 FIN    12345678 1990/01/01  2.5    1     3 w 1     2 b =  0000 - U
001    2 w    Ben Berg                          2200                             2.0    2  0000 - H     1 w =     4 b +
001    3      Cy Carr                                                            1.0    3     1 b 0     5 w 1  0000 - Z
001    4      Di Dunn                           1900                             0.0    4     5 b -  0000 - F     2 w -
001    5      Ed Eyre                                                            1.0    5     4 w +     3 b 0  0000 -
"""


def test_a_hand_written_sample_reads_right():
    t = trf.read(SAMPLE)
    assert t.header("012") == "Autumn Open" and t.header("XXR") == "3"
    ana, ben, cy, di, ed = t.players
    assert (ana.number, ana.sex, ana.title, ana.name, ana.rating, ana.federation, ana.fide_id, ana.birth) == (
        1, "m", "GM", "Ana Aalto", 2400, "FIN", "12345678", "1990/01/01")
    assert (ana.points, ana.rank) == (2.5, 1)
    assert ana.rounds == [trf.Game(3, "w", "1"), trf.Game(2, "b", "="), trf.Game(None, "-", "U")]
    assert ben.rounds[0] == trf.Game(None, "-", "H") and ben.rounds[2] == trf.Game(4, "b", "+")
    assert cy.rating is None and cy.rounds[2] == trf.Game(None, "-", "Z")
    assert di.rounds == [trf.Game(5, "b", "-"), trf.Game(None, "-", "F"), trf.Game(2, "w", "-")]
    assert ed.rounds[2] == trf.Game(None, "-", " ")  # blank: not played (like Z)


def test_write_read_write_is_identical():
    text = trf.write(trf.read(SAMPLE))
    assert trf.write(trf.read(text)) == text
    assert text == SAMPLE  # the sample is in the writer's own layout


def test_a_written_tournament_reads_back_equal():
    t = trf.Tournament([("012", "Club night"), ("XXR", "2")], [
        trf.Player(1, "Mei", rating=1500, points=1.5, rank=1, rounds=[trf.Game(2, "w", "1"), trf.Game(None, "-", "U")]),
        trf.Player(2, "Arnav", points=0.0, rank=2, rounds=[trf.Game(1, "b", "0"), trf.Game(None, "-", "Z")]),
    ])
    assert trf.read(trf.write(t)) == t


def test_columns_are_fide_s():
    line = next(line for line in SAMPLE.splitlines() if line.startswith("001    1"))
    assert line[4:8] == "   1" and line[14:23] == "Ana Aalto" and line[48:52] == "2400"
    assert line[80:84] == " 2.5" and line[85:89] == "   1"
    assert line[91:95] == "   3" and line[96] == "w" and line[98] == "1"  # round 1: columns 92-95, 97, 99
    assert line[101:105] == "   2" and line[106] == "b" and line[108] == "="  # round 2 from column 102


def test_round_pairings_read_a_round():
    t = trf.read(SAMPLE)
    # Round 1 as written has a half-point bye (H): not a pairing of everyone.
    with pytest.raises(trf.TrfError, match="not paired in round 1"):
        trf.round_pairings(t, 1)
    text = SAMPLE.replace("  0000 - H", "     5 w  ")  # Ben says he meets Ed, Ed says Di
    with pytest.raises(trf.TrfError, match="does not say so"):
        trf.round_pairings(trf.read(text), 1)


def test_round_pairings_with_a_bye():
    t = trf.Tournament([], [
        trf.Player(1, "A", rounds=[trf.Game(3, "b", " ")]),
        trf.Player(2, "B", rounds=[trf.Game(None, "-", "U")]),
        trf.Player(3, "C", rounds=[trf.Game(1, "w", " ")]),
    ])
    assert trf.round_pairings(trf.read(trf.write(t)), 1) == [(3, 1), (2, None)]


@pytest.mark.parametrize("bad, message", [
    ("001 abcd", "start number"),
    ("001    1      A".ljust(89) + "     9 w 1", "opponent 9 has no player line"),
    ("001    1      A".ljust(89) + "     1 x 1", "colour"),
    ("001    1      A".ljust(89) + "     1 w ?", "unknown result"),
    ("001    1      A".ljust(89) + "    1 w 1", "a round is 10 columns"),
    ("001    1      A\n001    1      B", "appears twice"),
    # Other scripts' digits, which str.isdigit and float take (an arbiter's paste made it a 500):
    ("001    \u00b9      A", "start number"),
    ("001    \uff11      A", "start number"),
    ("001    1      A".ljust(48) + "\u00b2\u00b2\u00b2\u00b2", "rating"),
    ("001    1      A".ljust(89) + "     \u2074 w 1", "opponent"),
    ("001    1      A".ljust(80) + " nan", "points"),
    ("001    1      A".ljust(80) + "\uff11.5", "points"),
])
def test_bad_lines_are_refused_in_words(bad, message):
    with pytest.raises(trf.TrfError, match=message):
        trf.read(bad)


@pytest.mark.parametrize("rounds", ["\uff19", "nan", "inf"])
def test_a_header_number_in_other_digits_or_not_a_number_is_refused(rounds):
    with pytest.raises(trf.TrfError, match="XXR line needs a number"):
        trf.declared(trf.read(f"XXR {rounds}\n001    1      A"))


def test_round_pairings_refuse_what_does_not_pair_everyone():
    one_sided = trf.Tournament([], [trf.Player(1, "A", rounds=[trf.Game(2, "w", " ")]),
                                    trf.Player(2, "B", rounds=[trf.Game(None, "-", "U")])])
    with pytest.raises(trf.TrfError, match="does not say so"):
        trf.round_pairings(one_sided, 1)
    same_colour = trf.Tournament([], [trf.Player(1, "A", rounds=[trf.Game(2, "w", " ")]),
                                      trf.Player(2, "B", rounds=[trf.Game(1, "w", " ")])])
    with pytest.raises(trf.TrfError, match="one w and one b"):
        trf.round_pairings(same_colour, 1)
    absent = trf.Tournament([], [trf.Player(1, "A", rounds=[trf.Game(None, "-", "Z")])])
    with pytest.raises(trf.TrfError, match="not paired"):
        trf.round_pairings(absent, 1)
    short = trf.Tournament([], [trf.Player(1, "A", rounds=[])])
    with pytest.raises(trf.TrfError, match="has no round 1"):
        trf.round_pairings(short, 1)


def test_a_name_is_compared_only_as_far_as_its_field_holds():
    """A name over 33 characters is cut in the file: the full name is still the same
    name, as the file holds it (the platform read back its own export as another
    player's, an outside walkthrough found)."""
    long_name = "Chen Wei of the Riverside Chess Society"
    written = trf.write(trf.Tournament(players=[trf.Player(12, long_name)]))
    (back,) = trf.read(written).players
    assert back.name == "Chen Wei of the Riverside Chess S" == trf.name_in_field(long_name)
    assert trf.same_name(back.name, long_name) and trf.same_name(back.name.upper(), long_name)
    assert not trf.same_name("Chen Wei of the Riverside Chess X", long_name)
    assert not trf.same_name("Chen Wei", long_name)  # a name cut shorter is another name
    # Cut where a space falls: the field's trailing space is not part of the name.
    spaced = "A" * 32 + " Bee"
    (back,) = trf.read(trf.write(trf.Tournament(players=[trf.Player(1, spaced)]))).players
    assert back.name == "A" * 32 and trf.same_name(back.name, spaced)
