"""A pairing played as a match (best of N, T-Tic-T-Tac-Toe's five games) feeds every format."""

from __future__ import annotations

import pytest

from games.rules.match import MatchRules, new_match
from league.formats.double_elimination import DoubleElimination
from league.formats.matches import game_points, pairing_points, pairing_winner
from league.formats.swiss import SwissTournament


def _play(rules: MatchRules, winners: list[int | None]):
    match = new_match(rules, seed="pairing-1")
    for w in winners:
        if match.is_over:
            break
        match = match.record(w)
    return match


def test_best_of_three_stops_when_decided_and_scores_the_pairing():
    match = _play(MatchRules(format="best-of", games=3), [1, 1, 0])
    assert match.games_played == 2
    assert pairing_points(match) == (0.0, 1.0) and pairing_winner(match) == 1


def test_five_game_match_plays_all_games_and_can_be_drawn():
    rules = MatchRules(format="all", games=5)
    match = _play(rules, [0, 1, None, None, None])
    assert match.games_played == 5 and game_points(match) == (1, 1)
    assert pairing_points(match) == (0.5, 0.5) and pairing_winner(match) is None


def test_unfinished_match_gives_no_result():
    match = _play(MatchRules(format="all", games=5), [0, 0, 0])
    with pytest.raises(ValueError):
        pairing_points(match)


def test_swiss_and_bracket_consume_match_results():
    t = SwissTournament(["ann", "bob", "cy", "dee"])
    rules = MatchRules(format="best-of", games=3)
    for pairing, games in zip(t.pair_round(), ([0, 0], [1, 0, 1])):
        t.record(pairing, *pairing_points(_play(rules, games)))
    assert sorted(p.score for p in t.players.values()) == [0, 0, 1, 1]
    event = DoubleElimination(4)
    first = event.playable()[0]
    winner = pairing_winner(_play(rules, [1, 1]))
    event.record(first.id, first.players[winner])
    assert first.winner == first.players[1]


def test_formats_package_is_pure():
    import subprocess
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parents[3])

    code = (
        "import sys, league.formats.round_robin, league.formats.single_elimination, "
        "league.formats.double_elimination, league.formats.swiss, league.formats.arena, "
        "league.formats.tiebreaks, league.formats.matches; "
        "assert not [m for m in sys.modules if m.split('.')[0] in ('django', 'games')], 'impure'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env={"PYTHONPATH": root}, cwd="/")
