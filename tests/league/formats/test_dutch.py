"""The FIDE Dutch system against reference pairings made by an independent program.

tests/league/data/dutch holds random tournaments every round of which bbpPairings' Dutch
(2025 rules) paired (PROVENANCE.md there). Each round is re-paired here from the rounds
before it and must be identical: the same pairs, the same player moving first, the
same bye. Every file runs in every test run (about 50 s of CPU in all) where the native
matcher is built; without it (networkx: 800 s) only the fields up to 60 players, and
``bench/dutch_check.py`` runs the rest (docs/formats.md gives the last result).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from league.formats import acceleration, dutch, explain, matching, trf

DATA = Path(__file__).parent.parent / "data" / "dutch"
QUICK_UP_TO = 300 if matching.native is not None else 60  # players


def _files(small: bool) -> list[Path]:
    found = []
    for path in sorted(DATA.glob("*.trf")):
        players = int(path.name.split("-")[1][1:])
        if (players <= QUICK_UP_TO) == small:
            found.append(path)
    return found


def _stored(tournament: trf.Tournament, number: int) -> list[tuple[int, int]]:
    return sorted((white, black or 0) for white, black in trf.round_pairings(tournament, number, skip_absent=True))


@pytest.mark.parametrize("path", _files(small=True), ids=lambda p: p.stem)
def test_every_round_is_the_reference_pairing(path: Path) -> None:
    tournament = trf.read(path.read_text())
    facts = trf.declared(tournament)
    for number in range(1, facts.rounds + 1):
        pairs = dutch.pair(trf.before_round(tournament, number), number, total_rounds=facts.rounds,
                           initial_colour=facts.initial_colour, points=dutch.Points(**facts.points))
        assert sorted(dutch.pairs_of(pairs)) == _stored(tournament, number), f"round {number}"


@pytest.mark.parametrize("budget", [12, 48])
def test_s1_choices_split_over_several_matchings_give_the_same_pairings(monkeypatch: pytest.MonkeyPatch,
                                                                       budget: int) -> None:
    """S1's choice fields that do not fit in one matching (from about 400 S1 players in a
    bracket) are solved a few players at a time, each group fixed before the next: the
    same rounds as in one matching. Forced here with a small width."""
    splits = []
    real = dutch._Pairer._choice_fields

    def counted(self: dutch._Pairer, s1: list[int], choices: dict[int, list[int]]) -> Iterator[object]:
        chunks = list(real(self, s1, choices))
        splits.append(len(chunks))
        return iter(chunks)

    monkeypatch.setattr(dutch._Pairer, "_field_budget", lambda self: budget)
    monkeypatch.setattr(dutch._Pairer, "_choice_fields", counted)
    monkeypatch.setattr(dutch, "_unplayed_field", lambda ordered: None)  # first rounds through the matchings too
    for path in [p for p in _files(small=True) if int(p.name.split("-")[1][1:]) <= 40][:12]:
        test_every_round_is_the_reference_pairing(path)
    assert max(splits) > 1, "the fields never needed more than one matching: nothing was tested"


def test_the_reference_set_is_what_the_issue_asks() -> None:
    """At least 100 tournaments of 8 to 300 players, odd and even, 3 to 11 rounds, with draws,
    forfeits and half-point byes somewhere; the quick ones are a real share of them."""
    files = sorted(DATA.glob("*.trf"))
    sizes = [int(p.name.split("-")[1][1:]) for p in files]
    rounds = [int(p.name.split("-")[2][1:]) for p in files]
    assert len(files) >= 100
    assert min(sizes) >= 8 and max(sizes) <= 300 and {s % 2 for s in sizes} == {0, 1}
    assert min(rounds) >= 3 and max(rounds) <= 11
    results = "".join(g.result for p in files for line in trf.read(p.read_text()).players for g in line.rounds)
    assert "=" in results and "+" in results and "H" in results
    assert len(_files(small=True)) >= 30


def _event(lines: list[str], rounds: int) -> trf.Tournament:
    return trf.read("\n".join([f"XXR {rounds}", *lines]) + "\n")


def _line(number: int, *games: str) -> str:
    """A player line: start number and 10-column round blocks such as '   2 w 1'."""
    return f"001 {number:>4}      Player {number:<26} {'':>4} {'':3} {'':>11} {'':10} {0.0:>4.1f} {0:>4}" + "".join(
        f"  {g}" for g in games)


def test_two_players_who_have_met_cannot_be_paired_again() -> None:
    event = _event([_line(1, "   2 w 1"), _line(2, "   1 b 0")], 3)
    with pytest.raises(dutch.DutchError):
        dutch.pair(event, 2)


def test_a_player_with_a_declared_absence_is_not_paired_and_the_odd_one_out_has_the_bye() -> None:
    event = _event([_line(1, "   2 w 1", "0000 - H"), _line(2, "   1 b 0"), _line(3, "   4 w =", ),
                    _line(4, "   3 b =")], 3)
    pairs = dutch.pair(event, 2)
    assert all(1 not in (p.white, p.black) for p in pairs)
    assert pairs[-1].black is None  # the bye is listed last, as bbpPairings does
    # 2 has the lowest score, but 3 and 4 have met: one of them meets 2 and the other, the
    # lower-ranked 4, has the bye; 2 moved second in round 1 and 3 first, so 2 moves first.
    assert [(p.white, p.black) for p in pairs] == [(2, 3), (4, None)]


def test_nobody_gets_the_pairing_allocated_bye_twice() -> None:
    event = _event([_line(1, "   2 w 1"), _line(2, "   1 b 0"), _line(3, "0000 - U")], 3)
    pairs = dutch.pair(event, 2)
    bye = [p.white for p in pairs if p.black is None]
    assert bye != [3]


def test_a_forfeit_is_not_a_game_played_so_the_two_may_meet_and_the_reason_says_so() -> None:
    event = _event([_line(1, "   2 w +"), _line(2, "   1 b -")], 3)
    (again,) = dutch.pair(event, 2)
    assert {again.white, again.black} == {1, 2}
    assert [r.code for r in again.reasons] == ["float", "met-by-forfeit", "first-move"]
    assert again.reasons[1].data == {"rounds": [1]}


def test_the_bye_reason_names_c9_when_a_lower_player_has_played_fewer_games() -> None:
    """Round 2 of five: 2 and 4 are the 0-point group; 4, ranked lower, lost round 1 by
    forfeit (a round without a game), so the bye goes to 2 (C9), and the reason says why
    rather than "the players below could not all be paired otherwise" (found by a walkthrough)."""
    event = _event([_line(1, "   2 w 1"), _line(2, "   1 b 0"), _line(3, "   4 w +"), _line(4, "   3 b -"),
                    _line(5, "0000 - U")], 5)
    pairs = dutch.pair(event, 2)
    (bye,) = [p for p in pairs if p.black is None]
    assert bye.white == 2
    assert bye.reasons[0].code == "bye" and bye.reasons[0].players == (2, 4)
    assert bye.reasons[0].data == {"rule": "fewest-unplayed"}
    assert explain.text(bye.reasons[0].as_dict(), {2: "Gustavo", 4: "Kwame"}).startswith(
        "Gustavo has the bye: Kwame, ranked below, has played fewer games")


def test_the_bye_reason_says_so_when_every_lower_player_has_had_a_bye_or_a_forfeit_win() -> None:
    """Round 3 of five: the 1-point group (2, 4, 5) has had a forfeit win or a bye each, so
    the bye goes up to 3 of the 1½-point group. It said "lowest ranked in the lowest score
    group who has not had one", and 3 was not in the lowest score group (a walkthrough)."""
    event = _event([_line(1, "   3 w =", "   2 b +"), _line(2, "   4 b +", "   1 w -"),
                    _line(3, "   1 b =", "   5 w 1"), _line(4, "   2 w -", "0000 - U"),
                    _line(5, "0000 - U", "   3 b 0")], 5)
    (bye,) = [p for p in dutch.pair(event, 3) if p.black is None]
    assert bye.white == 3
    assert bye.reasons[0].data == {"rule": "lowest-eligible", "forfeits": True}
    assert explain.text(bye.reasons[0].as_dict(), {3: "Sam"}) == (
        "Sam has the bye: every player ranked below Sam has had a bye or a win by forfeit and may not have it "
        "again; Sam is the lowest ranked who may.")


def test_a_float_from_a_group_whose_only_mate_was_met_says_rematch() -> None:
    """1 and 2 drew in round 1 and are the only ones on half a point: each floats down
    because they have met, which the reason names (it said "so that the rest of the group
    could be paired")."""
    event = _event([_line(1, "   2 w ="), _line(2, "   1 b ="), _line(3, "   4 w 1"), _line(4, "   3 b 0"),
                    _line(5, "   6 w 1"), _line(6, "   5 b 0")], 5)
    floats = {p.white if p.white in (1, 2) else p.black: p.reasons[0] for p in dutch.pair(event, 2)
              if {p.white, p.black} & {1, 2}}
    assert set(floats) == {1, 2}
    for player, other in ((1, 2), (2, 1)):
        assert floats[player].code == "float" and floats[player].data["why"] == "rematch"
        assert floats[player].players[0] == player and floats[player].players[2] == other
    assert explain.text(floats[1].as_dict(), {1: "Björn", 2: "Hana", 4: "Ada", 6: "Ada"}).endswith(
        "to avoid a rematch with Hana.")


def test_a_float_with_a_mate_it_could_have_met_does_not_blame_a_rematch() -> None:
    """Four on 1 point, one of them met before: when the rules float the first down, a
    mate it was free to meet remains, so the reason is the group's pairing ("others"),
    not a rematch; with every mate met, it is the rematch."""
    players = [dutch._Player(n, rank=n - 1, score=1.0 if n < 5 else 0.0) for n in range(1, 7)]
    players[0].opponents = {2}
    assert dutch._float_reason(players, players[0], players[4], {}).data["why"] == "others"
    players[0].opponents = {2, 3, 4}
    reason = dutch._float_reason(players, players[0], players[4], {})
    assert reason.data["why"] == "rematch" and reason.players == (1, 5, 2)


# -- accelerated rounds (virtual points, C.04.5) -------------------------------------

ACCELERATED = DATA / "accelerated"


def _accelerated(small: bool) -> list[Path]:
    return [p for p in sorted(ACCELERATED.glob("*.trf")) if (int(p.name.split("-")[1][1:]) <= QUICK_UP_TO) == small]


@pytest.mark.parametrize("path", _accelerated(small=True), ids=lambda p: p.stem)
def test_every_accelerated_round_is_the_reference_pairing(path: Path) -> None:
    """The virtual points come from the file's XXA lines (``trf.declared``)."""
    tournament = trf.read(path.read_text())
    assert trf.declared(tournament).virtual_points
    for number in range(1, trf.declared(tournament).rounds + 1):
        pairs = dutch.pair(trf.before_round(tournament, number), number)
        assert sorted(dutch.pairs_of(pairs)) == _stored(tournament, number), f"round {number}"


def test_the_accelerated_set_covers_baku_and_other_virtual_points() -> None:
    files = sorted(ACCELERATED.glob("*.trf"))
    sizes = [int(p.name.split("-")[1][1:]) for p in files]
    assert len(files) >= 20 and min(sizes) == 8 and max(sizes) == 300 and {s % 2 for s in sizes} == {0, 1}
    assert {p.stem.split("-")[-1] for p in files} == {"baku", "other"}
    assert len(_accelerated(small=True)) >= 15


def test_baku_round_one_pairs_group_a_within_itself() -> None:
    """Eight players, Baku: group A (1-4) has a virtual point, so it is a bracket of its
    own; without virtual points the top half meets the bottom half."""
    lines = [_line(n) for n in range(1, 9)]
    virtual = acceleration.baku(list(range(1, 9)), 5)
    accelerated = trf.read("\n".join(["XXR 5", "XXC white1", *(f"{t} {x}" for t, x in
                                                                trf.virtual_point_headers(virtual)), *lines]) + "\n")
    plain = _event(lines, 5)
    assert sorted(map(sorted, dutch.pairs_of(dutch.pair(accelerated, 1)))) == [[1, 3], [2, 4], [5, 7], [6, 8]]
    assert sorted(map(sorted, dutch.pairs_of(dutch.pair(plain, 1)))) == [[1, 5], [2, 6], [3, 7], [4, 8]]


def test_a_pairing_score_with_virtual_points_says_so() -> None:
    lines = [_line(n) for n in range(1, 5)]
    virtual = {1: (1.0,), 2: (1.0,)}
    event = trf.read("\n".join(["XXR 3", *(f"{t} {x}" for t, x in trf.virtual_point_headers(virtual)), *lines]) + "\n")
    reasons = {frozenset((p.white, p.black)): p.reasons[0] for p in dutch.pair(event, 1)}
    top = reasons[frozenset((1, 2))]
    assert top.code == "score-group" and top.data == {"points": 1.0, "virtual": True}
    assert explain.text(top.as_dict(), {}) == ("Both on 1 point (pairing scores: points plus the virtual points "
                                               "of an accelerated round).")
    assert reasons[frozenset((3, 4))].data == {"points": 0.0}


@pytest.mark.parametrize("size", [*range(2, 42), 99, 100])
def test_a_first_round_is_paired_as_the_matchings_pair_it(size: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The unplayed field's shortcut (dutch._unplayed_field) against the matchings
    themselves: the same pairs, colours and reasons, odd fields and even."""
    players = [trf.Player(number=n, name=f"P{n}", rating=2400 - 7 * n) for n in range(1, size + 1)]
    tournament = trf.Tournament([("XXR", "7"), ("XXC", "white1")], players)
    quick = dutch.pair(tournament, 1)
    monkeypatch.setattr(dutch, "_unplayed_field", lambda ordered: None)
    assert dutch.pair(tournament, 1) == quick
    assert len(quick) == (size + 1) // 2


def test_a_field_with_rounds_behind_it_or_accelerated_takes_the_matchings() -> None:
    players = [trf.Player(number=n, name=f"P{n}", rating=2400 - n) for n in range(1, 9)]
    accelerated = trf.Tournament([("XXR", "7"), ("XXC", "white1"), ("192", "FIDE_DUTCH_BAKU")], players)
    ordered = sorted(dutch._players(accelerated, 1, dutch.Points(), trf.declared(accelerated).virtual_points),
                     key=lambda p: (-p.score, p.rank))
    assert dutch._unplayed_field(ordered) is None
    one_round = [trf.Player(number=n, name=f"P{n}", rating=2400 - n,
                            rounds=[trf.Game(9 - n, "w" if n <= 4 else "b", "1" if n <= 4 else "0")])
                 for n in range(1, 9)]
    played = trf.Tournament([("XXR", "7"), ("XXC", "white1")], one_round)
    ordered = sorted(dutch._players(played, 2, dutch.Points(), {}), key=lambda p: (-p.score, p.rank))
    assert dutch._unplayed_field(ordered) is None
