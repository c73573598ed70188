"""Standings while a round is in play: a game not over yet counts in no tie-break, where
it was counted as an unplayed round (a dummy opponent with the player's own score): a
walkthrough found a player who had lost her only game shown a Buchholz Cut-1 of 1, and
every player a Buchholz of 1 (docs/competitions.md, "Standings")."""

from __future__ import annotations

import pytest

from league import competitions as cs
from league.competitions.formats.base import ranked_by_tiebreaks
from league.competitions.selectors import section_results
from league.formats import tiebreaks
from league.models import Entry, Pairing, PairingPlayer
from tests.factories import players, section_with

from .support import decide

pytestmark = pytest.mark.django_db


def test_a_game_in_play_counts_in_no_tiebreak_until_it_is_over(make_player):
    section = section_with(players(make_player, 4), format="swiss", rounds=3)
    decide(section)  # round 1: the higher seeds win
    for _ in range(5):
        section.refresh_from_db()
        if section.current_round == 2:
            break
        cs.sweep()
    assert section.current_round == 2 and Pairing.objects.filter(section=section, round__number=2).exists()
    seeds = dict(Entry.objects.filter(section=section).values_list("user_id", "seed"))
    results = section_results(section).by_round
    assert all(rounds[1].pending for rounds in results.values())  # everyone's round 2 is in play
    first_round = {p.user_id: p.opponent_id for p in PairingPlayer.objects.filter(round__section=section,
                                                                                 round__number=1)}
    points = {user: sum(r.points for r in rounds) for user, rounds in results.items()}
    table = {row.user_id: row for row in ranked_by_tiebreaks(section, ["buchholz-cut1", "buchholz"])}
    for user, row in table.items():
        # One game over: Buchholz is its opponent's score, and Cut-1 cuts it.
        assert row.tiebreaks == {"buchholz": points[first_round[user]], "buchholz-cut1": 0.0}, (seeds[user], row)

    decide(section)  # round 2 over (its results recorded as Celery would): nothing pending in it
    cs.sweep()
    over = section_results(section, up_to=2).by_round
    assert not any(r.pending for rounds in over.values() for r in rounds)


def test_pending_rounds_are_left_out_of_every_tiebreak_and_unplayed_ones_are_not():
    R = tiebreaks.RoundResult
    pending = R(None, 0.0, False, pending=True)
    unplayed = R(None, 0.0, False)
    results = {
        "ana": [R("ben", 1.0), pending],
        "ben": [R("ana", 0.0), R("cy", 1.0)],
        "cy": [R("dan", 0.5), R("ben", 0.0)],
        "dan": [R("cy", 0.5), unplayed],
    }
    score = tiebreaks.scores(results)
    assert score == {"ana": 1.0, "ben": 1.0, "cy": 0.5, "dan": 0.5}
    # Ana: her one game (ben, 1); an unplayed round would add a dummy with her own 1.
    assert tiebreaks.value("buchholz", "ana", results, score) == 1.0
    assert tiebreaks.value("buchholz-cut1", "ana", results, score) == 0.0
    assert tiebreaks.value("sonneborn-berger", "ana", results, score) == 1.0
    assert tiebreaks.value("buchholz", "ana", results, score, unplayed="virtual-opponent") == 1.0
    # Dan's unplayed round still counts: a dummy with his own 0.5.
    assert tiebreaks.value("buchholz", "dan", results, score) == 0.5 + 0.5
    with_unplayed = {**results, "ana": [R("ben", 1.0), unplayed]}
    assert tiebreaks.value("buchholz", "ana", with_unplayed, score) == 2.0
