"""Correcting a result of a past round says, before the organiser confirms and again
once it is done, what the correction leaves as it is: in a Swiss, the next round was
paired on the old scores and is not paired again; the standings are recomputed. An
organiser walkthrough corrected a round-1 result with round 2 already paired and the
console said nothing of it (docs/competitions.md, "A correction")."""

from __future__ import annotations

import pytest
from django.contrib.admin import helpers
from django.contrib.messages import get_messages

from league import competitions
from league.competitions import corrections
from league.models import Pairing, Round, Standing
from moderation.models import AuditEntry
from tests.factories import section_with

from .support import tournament_section

pytestmark = pytest.mark.django_db

LIST = "/admin/league/pairing/"


def swiss_after_round_one(world, make_player, *, pair_round_two: bool):
    players = [world.player_1, world.player_2, world.member_a, make_player()]
    section = section_with(players, format="swiss", rounds=3, club=world.club_a, tournament="Spring cup",
                           rule_set=world.rules_a, starts_in=3600)
    for pairing in Pairing.objects.filter(section=section, round__number=1):
        competitions.adjudicate_pairing(pairing_id=pairing.pk, result="1-0", reason="played over the board")
    if pair_round_two:
        competitions.start_round(section_id=section.pk, number=2, force=True)
    return section, Pairing.objects.filter(section=section, round__number=1).order_by("board").first()


def correct(client, pairing, *, confirm: bool):
    body = {"action": "correct_second", "index": "0", helpers.ACTION_CHECKBOX_NAME: [str(pairing.pk)]}
    if confirm:
        body |= {"confirm": "yes", "reason": "The score sheet was misread"}
    return client.post(LIST, body)


def test_the_console_says_the_next_round_was_paired_on_the_old_scores(client, world, make_player):
    section, pairing = swiss_after_round_one(world, make_player, pair_round_two=True)
    round_two = sorted(Pairing.objects.filter(section=section, round__number=2).values_list("first", "second"))
    client.force_login(world.organiser_a)

    # Before: on the confirmation page, under the pairing.
    page = correct(client, pairing, confirm=False).content.decode()
    assert f"{pairing.first} v {pairing.second}, scored 1-0. Round 2 was paired on the old scores and is not " \
           "paired again: its pairings stand." in page
    assert "The standings are recomputed at once." in page
    assert not AuditEntry.objects.filter(action="result.correct").exists()

    # After: said again, as a warning, with what the result is now.
    response = correct(client, pairing, confirm=True)
    said = [(m.level_tag, str(m)) for m in get_messages(response.wsgi_request)]
    warning = next(text for level, text in said if level == "warning")
    assert f"{pairing}: corrected, now {pairing.second} won (0-1)." in warning
    assert "Round 2 was paired on the old scores and was not paired again: its pairings stand." in warning
    assert "The standings were recomputed." in warning
    # And so it is: the round keeps its boards, the table has the corrected result.
    pairing.refresh_from_db()
    assert pairing.result == Pairing.Result.SECOND_WON
    assert sorted(Pairing.objects.filter(section=section, round__number=2)
                  .values_list("first", "second")) == round_two
    points = dict(Standing.objects.filter(section=section).values_list("user_id", "points"))
    assert (points[pairing.first_id], points[pairing.second_id]) == (0.0, 1.0)
    entry = AuditEntry.objects.get(action="result.correct")
    assert entry.details["rounds_paired_since"] == [2]


def test_before_the_next_round_is_paired_it_is_said_to_follow_the_corrected_scores(client, world, make_player):
    section, pairing = swiss_after_round_one(world, make_player, pair_round_two=False)
    assert Round.objects.get(section=section, number=2).status == Round.Status.SCHEDULED
    client.force_login(world.organiser_a)
    page = correct(client, pairing, confirm=False).content.decode()
    assert "Round 2, not paired yet, will be paired on the corrected scores." in page
    assert "paired on the old scores" not in page


def test_a_round_robins_later_rounds_keep_their_berger_pairings(world, make_player):
    players = [world.player_1, world.player_2, world.member_a, make_player()]
    section = tournament_section(world, players)
    for pairing in Pairing.objects.filter(section=section, round__number=1):
        competitions.adjudicate_pairing(pairing_id=pairing.pk, result="1-0", reason="played")
    competitions.start_round(section_id=section.pk, number=2, force=True)
    pairing = Pairing.objects.filter(section=section, round__number=1).select_related("round", "section").first()
    assert pairing is not None
    note = corrections.correction_note(pairing)
    assert note.startswith("Round 2 keeps its pairings: a round robin's come from the Berger table")
    assert "old scores" not in note


@pytest.mark.parametrize(("numbers", "words"), [
    ([4], "Round 4"), ([4, 5], "Rounds 4 and 5"), ([4, 5, 6, 7], "Rounds 4 to 7"), ([4, 6, 7], "Rounds 4, 6 and 7"),
])
def test_rounds_in_words(numbers, words):
    assert corrections.rounds_words(numbers) == words


def test_a_knockouts_result_is_refused_before_any_reason_is_asked(client, world, make_player):
    """Found by an organiser probe: the console asked for a reason, then refused the
    correction of a bracket's result (bracket-result). Now it says why at once."""
    players = [world.player_1, world.player_2, world.member_a, make_player()]
    section = section_with(players, format="single-elimination", club=world.club_a, tournament="Cup",
                           rule_set=world.rules_a, starts_in=3600)
    pairing = Pairing.objects.filter(section=section, round__number=1).order_by("board").first()
    competitions.adjudicate_pairing(pairing_id=pairing.pk, result="1-0", reason="played over the board")
    client.force_login(world.organiser_a)

    response = correct(client, pairing, confirm=False)
    assert response.status_code == 302  # back to the list: no confirmation page, no reason asked
    said = [(m.level_tag, str(m)) for m in get_messages(response.wsgi_request)]
    assert said == [("error", f"{pairing}: A bracket's result stands once played: who went through is settled.")]
    pairing.refresh_from_db()
    assert pairing.result == Pairing.Result.FIRST_WON
    assert not AuditEntry.objects.filter(action="result.correct").exists()


@pytest.mark.parametrize("action", ["forfeit_both", "adjudicate_draw"])
def test_a_knockouts_tie_is_refused_before_any_reason_is_asked(client, world, make_player, action):
    """A knockout match sends one player through: 'both lose' and 'a draw' are refused
    at once, and nothing changes (refusals.tie_refusal)."""
    players = [world.player_1, world.player_2, world.member_a, make_player()]
    section = section_with(players, format="single-elimination", club=world.club_a, tournament="Cup",
                           rule_set=world.rules_a, starts_in=3600)
    pairing = Pairing.objects.filter(section=section, round__number=1).order_by("board").first()
    client.force_login(world.organiser_a)

    response = client.post(LIST, {"action": action, "index": "0", helpers.ACTION_CHECKBOX_NAME: [str(pairing.pk)]})
    assert response.status_code == 302  # back to the list: no confirmation page, no reason asked
    said = [(m.level_tag, str(m)) for m in get_messages(response.wsgi_request)]
    assert said == [("error", f"{pairing}: A knockout match sends one player through: forfeit it to one of them "
                              "or adjudicate a win (with both absent, the higher seed goes through).")]
    pairing.refresh_from_db()
    assert pairing.status == Pairing.Status.IN_PLAY
    assert not AuditEntry.objects.filter(action__in=("game.forfeit", "game.adjudicate")).exists()
