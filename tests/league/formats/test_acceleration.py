"""Accelerated rounds: the Baku method's groups and virtual points (FIDE C.04.5.1), and
virtual points in TRF files (XXA lines, or a 192 line naming a Baku system)."""

from __future__ import annotations

import re

import pytest

from league.formats import acceleration, trf


def test_group_a_is_the_first_half_rounded_up_to_an_even_number() -> None:
    """C.04.5.1's own example: of 161 players, group A is the first 82."""
    virtual = acceleration.baku(list(range(1, 162)), 9)
    assert sorted(virtual) == list(range(1, 83))
    assert {len(acceleration.baku(list(range(1, n + 1)), 9)) for n in (9, 10, 11, 12)} == {6}
    assert len(acceleration.baku(list(range(1, 14)), 9)) == 8


@pytest.mark.parametrize(("rounds", "points"), [
    (9, (1.0, 1.0, 1.0, 0.5, 0.5)),  # the rule's example: five accelerated rounds, three of a full point
    (8, (1.0, 1.0, 0.5, 0.5)),
    (7, (1.0, 1.0, 0.5, 0.5)),
    (5, (1.0, 1.0, 0.5)),
    (1, (1.0,)),
])
def test_the_accelerated_rounds_are_the_first_half_with_a_full_point_in_the_first_half_of_them(rounds, points):
    virtual = acceleration.baku(list(range(1, 21)), rounds)
    assert set(virtual.values()) == {points}
    assert acceleration.of_round(virtual, 1, len(points)) == points[-1]
    assert acceleration.of_round(virtual, 1, len(points) + 1) == 0.0
    assert acceleration.of_round(virtual, 20, 1) == 0.0  # group B never has any


def test_a_late_entry_above_the_last_group_a_player_joins_group_a() -> None:
    """The last GA player stays the same, so group A may become odd (Note 2)."""
    order = [1, 2, 3, 99, 4, 5, 6, 7, 8]  # 99 entered after round 1, ranked fourth
    virtual = acceleration.baku(order, 9, round_one={1, 2, 3, 4, 5, 6, 7, 8})
    assert sorted(virtual) == [1, 2, 3, 4, 99]


def test_players_absent_from_round_one_do_not_count_for_the_groups() -> None:
    virtual = acceleration.baku(list(range(1, 11)), 9, round_one={1, 2, 3, 4, 5, 6, 7, 8})
    assert sorted(virtual) == [1, 2, 3, 4]


def test_other_point_systems_give_their_own_win_and_draw() -> None:
    virtual = acceleration.baku([1, 2, 3, 4], 4, win=3.0, draw=1.0)
    assert virtual[1] == (3.0, 1.0)


def _file(*headers: str, players: int = 4) -> str:
    lines = [f"001 {n:>4}      Player {n:<26}" for n in range(1, players + 1)]
    return "\n".join([*headers, *lines]) + "\n"


def test_xxa_lines_read_and_write_back() -> None:
    virtual = {1: (1.0, 1.0, 0.5), 3: (0.5,)}
    headers = trf.virtual_point_headers(virtual)
    assert headers == [("XXA", "   1  1.0  1.0  0.5"), ("XXA", "   3  0.5")]
    text = _file("XXR 5", *(f"{tag} {rest}" for tag, rest in headers))
    tournament = trf.read(text)
    assert trf.declared(tournament).virtual_points == virtual
    assert trf.write(tournament) == trf.write(trf.read(trf.write(tournament)))
    assert "XXA    1  1.0  1.0  0.5" in trf.write(tournament)


def test_a_blank_xxa_field_is_no_virtual_points() -> None:
    tournament = trf.read(_file("XXA    2       1.0"))
    assert trf.declared(tournament).virtual_points == {2: (0.0, 1.0)}


def test_an_xxa_line_for_nobody_is_refused() -> None:
    with pytest.raises(trf.TrfError, match="start number 9"):
        trf.declared(trf.read(_file("XXA    9  1.0")))
    with pytest.raises(trf.TrfError, match="XXA"):
        trf.declared(trf.read(_file("XXA    1  one")))


def test_a_baku_system_line_computes_the_virtual_points_and_xxa_lines_win() -> None:
    baku = trf.declared(trf.read(_file("XXR 9", "192 FIDE_DUTCH_2025_BAKU", players=10)))
    assert baku.virtual_points == acceleration.baku(list(range(1, 11)), 9)
    explicit = trf.declared(trf.read(_file("XXR 9", "192 FIDE_DUTCH_2025_BAKU", "XXA    2  1.0", players=10)))
    assert explicit.virtual_points == {2: (1.0,)}
    assert trf.declared(trf.read(_file("XXR 9", "192 FIDE_DUTCH_2025", players=10))).virtual_points == {}


@pytest.mark.parametrize(("line", "says"), [
    ("XXA    1  nan", "not 'nan'"),  # float() reads it: the probe's checker ran for minutes
    ("XXA    1  inf", "not 'inf'"),
    ("XXA    1 -1.0", "not '-1.0'"),
    ("XXA    1  1.0 -0.5", "not '-0.5'"),
    ("XXA    1  1e9", "not '1e9'"),
    ("XXA    1 99999", "not '9999'"),
    ("XXA  nan  1.0", "not 'nan'"),
    ("XXA  inf  1.0", "not 'inf'"),
    ("XXA  1.5  1.0", "not '1.5'"),
    ("XXA   abc 1.0", "not 'abc'"),
    ("XXA    1" + "  1.0" * 6, "gives 6 rounds"),
])
def test_xxa_points_that_make_no_sense_are_refused_with_the_value_as_written(line, says):
    with pytest.raises(trf.TrfError, match=re.escape(says)):
        trf.declared(trf.read(_file("XXR 5", line)))


def test_two_xxa_lines_for_one_player_are_refused():
    with pytest.raises(trf.TrfError, match="two XXA lines"):
        trf.declared(trf.read(_file("XXR 5", "XXA    1  1.0", "XXA    1  0.5")))
