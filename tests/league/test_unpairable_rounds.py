"""A Swiss round that cannot be paired (docs/competitions.md, "A round that cannot be
paired"): said in words by the preview and the console, never a 500; the scheduler stops
trying it and the organisers are told; the organiser ends the section after its last
round; a Swiss with more rounds than its field can play is refused at its start."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.errors import ServiceError
from accounts.models import Notice
from league import competitions as cs
from league.competitions import rounds as round_services
from league.competitions.forms import SectionForm
from league.models import Pairing, Round, Section
from moderation import operations
from moderation.models import AuditEntry
from tests.factories import players, section_with

from .support import decide, text_of, url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def stuck_swiss(make_player, system: str = "dutch") -> Section:
    """Three players and four rounds (as a section made before the start refused it):
    after round 3 everybody has met everybody and had the bye, so round 4 cannot be
    paired. Round 4 is left due."""
    section = section_with(players(make_player, 3), format="swiss", swiss_system=system, rounds=2,
                           round_interval=timedelta(hours=1))
    Section.objects.filter(pk=section.pk).update(rounds=4, total_rounds=4)
    for number in (1, 2, 3):
        decide(section)
        if number < 3:
            cs.start_round(section_id=section.pk, number=number + 1, force=True)
    Round.objects.filter(section=section, number=4).update(starts_at=timezone.now() - timedelta(minutes=1))
    section.refresh_from_db()
    return section


def arbiter_url(name: str, section: Section, *args) -> str:
    t = section.tournament
    return reverse(f"arbiter:{name}", args=[t.club.slug, t.slug, section.slug, *args])


def test_the_scheduler_stops_trying_a_round_that_cannot_be_paired_and_tells_the_organisers(
        client, organiser, make_player, monkeypatch):
    section = stuck_swiss(make_player)
    assert cs.sweep()["rounds"] == 0  # was: DutchError, raised again every 30 s
    round_4 = Round.objects.get(section=section, number=4)
    assert round_4.status == Round.Status.SCHEDULED
    assert round_4.unpairable == (
        "Round 4 cannot be paired: the 3 players still in have all played each other (FIDE's rules: no two players "
        "meet twice, and no player who has had a bye or a win by forfeit has the bye again).")
    told = Notice.objects.get(recipient=organiser, kind=Notice.Kind.ORGANISING)
    assert told.message.startswith(f"{section.tournament.name}: Round 4 cannot be paired")
    assert "End" in told.message and "after round 3" in told.message
    tried = []
    monkeypatch.setattr(round_services, "boards_for", lambda *args: tried.append(args))
    cs.sweep()
    cs.sweep()
    assert tried == []  # not paired again
    assert Notice.objects.filter(recipient=organiser, kind=Notice.Kind.ORGANISING).count() == 1
    # Everybody reads why on the section page, not "Round 4 starts <a time gone by>".
    page = text_of(client.get(url("section", section)).content.decode())
    assert "Round 4 cannot be paired: the 3 players still in have all played each other" in page
    assert "Round 4 starts" not in page
    assert "Round 4 · Cannot be paired" in page and "Paired when the round starts" not in page
    assert "The organisers have been told" in page
    client.force_login(organiser)
    page = text_of(client.get(url("section", section)).content.decode())
    assert "What you can do: end" in page and "End after round 3" in page


def test_the_preview_and_start_now_say_why_in_words(client, organiser, make_player):
    section = stuck_swiss(make_player)
    round_4 = Round.objects.get(section=section, number=4)
    client.force_login(organiser)
    preview = client.get(arbiter_url("round-preview", section, 4))
    assert preview.status_code == 200
    text = text_of(preview.content.decode())
    assert "Round 4 cannot be paired: the 3 players still in have all played each other" in text
    assert "Set the pairings from a TRF" in text  # the way to pair it by hand
    with pytest.raises(ServiceError) as refused:
        operations.start_round_now(actor=organiser, round_id=round_4.pk)
    assert refused.value.code == "unpairable"
    assert refused.value.message.startswith("Round 4 cannot be paired")
    published = client.post(arbiter_url("round-publish", section, 4), follow=True)
    assert "Round 4 cannot be paired" in text_of(published.content.decode())
    round_4.refresh_from_db()
    assert round_4.status == Round.Status.SCHEDULED


def test_the_console_s_start_now_says_why(client, make_player):
    section = stuck_swiss(make_player)
    admin = make_player(username="root")
    type(admin).objects.filter(pk=admin.pk).update(is_staff=True, is_superuser=True)
    client.force_login(admin)
    round_4 = Round.objects.get(section=section, number=4)
    answer = client.post("/admin/league/round/", {"action": "start_now", "_selected_action": [round_4.pk],
                                                  "confirm": "yes", "reason": ""}, follow=True)
    assert answer.status_code == 200
    assert "Round 4 cannot be paired" in text_of(answer.content.decode())


def test_the_organiser_ends_the_section_after_its_last_round(client, organiser, make_player):
    section = stuck_swiss(make_player)
    cs.sweep()
    client.force_login(organiser)
    answer = client.post(url("section-end", section), follow=True)
    assert "has ended after round 3" in text_of(answer.content.decode())
    section.refresh_from_db()
    assert section.status == Section.Status.FINISHED
    assert section.total_rounds == 3
    assert section.ended_early == ("Ended after round 3 of 4: round 4 could not be paired (no pairing keeps FIDE's "
                                   "rules), so the standings after round 3 are final.")
    assert not Round.objects.filter(section=section, number=4).exists()
    assert section.standings.filter(final=True).count() == 3
    for entry in section.entries.all():
        notice = Notice.objects.get(recipient_id=entry.user_id, kind=Notice.Kind.TOURNAMENT_FINISHED)
        assert "Ended after round 3 of 4" in notice.message
    assert AuditEntry.objects.filter(action="section.end-early").count() == 1
    assert "Ended after round 3 of 4" in text_of(client.get(url("section", section)).content.decode())


def test_a_section_whose_rounds_can_be_paired_is_not_ended_early(client, organiser, make_player):
    section = section_with(players(make_player, 4), format="swiss", swiss_system="dutch", rounds=3,
                           round_interval=timedelta(hours=1))
    decide(section)
    client.force_login(organiser)
    answer = client.post(url("section-end", section), follow=True)
    assert "ends early only when its next round cannot be paired" in text_of(answer.content.decode())
    section.refresh_from_db()
    assert section.status == Section.Status.RUNNING


def test_a_swiss_with_more_rounds_than_its_field_can_play_does_not_start(client, organiser, make_player):
    section = section_with(players(make_player, 3), format="swiss", swiss_system="dutch", rounds=5, start=False)
    with pytest.raises(ServiceError) as refused:
        cs.start_round(section_id=section.pk, number=1, force=True)
    assert refused.value.code == "unpairable"
    assert "a Swiss of 5 rounds needs at least 6 players" in refused.value.message
    client.force_login(organiser)
    page = text_of(client.get(url("section", section)).content.decode())
    assert "a Swiss of 5 rounds needs at least 6 players (nobody meets anyone twice), and it has 3" in page
    assert "Start this section now" not in page
    # At its time: kept on round 1, the organisers told; an edit to fewer rounds lets it start.
    Round.objects.filter(section=section, number=1).update(starts_at=timezone.now() - timedelta(seconds=5))
    cs.sweep()
    section.refresh_from_db()
    assert section.status == Section.Status.REGISTRATION
    assert "needs at least 6 players" in Round.objects.get(section=section, number=1).unpairable
    assert Notice.objects.filter(recipient=organiser, kind=Notice.Kind.ORGANISING).count() == 1
    Section.objects.filter(pk=section.pk).update(rounds=2)
    cs.sweep()
    section.refresh_from_db()
    assert section.status == Section.Status.RUNNING
    assert Round.objects.get(section=section, number=1).unpairable == ""


def test_the_form_bounds_the_rounds(make_player):
    field = SectionForm.base_fields["rounds"]
    assert field.max_value == 99
    with pytest.raises(ServiceError) as refused:
        section_with(players(make_player, 4), format="swiss", rounds=999, start=False, capacity=None)
    assert refused.value.code == "bad-rounds"


def test_withdrawals_that_leave_only_players_who_had_a_bye_or_a_forfeit_win(make_player):
    """Five players; round 1's two games are won by forfeit and both losers withdraw: the
    three left have had the bye or a forfeit win, so none may have round 2's bye."""
    section = section_with(players(make_player, 5), format="swiss", swiss_system="dutch", rounds=3,
                           round_interval=timedelta(hours=1))
    games = list(Pairing.objects.filter(section=section, round__number=1, second__isnull=False))
    for pairing in games:
        cs.forfeit_pairing(pairing_id=pairing.pk, loser="second")
        cs.withdraw(section=section, user=pairing.second)
    Round.objects.filter(section=section, number=2).update(starts_at=timezone.now() - timedelta(minutes=1))
    assert cs.sweep()["rounds"] == 0
    assert Round.objects.get(section=section, number=2).unpairable.startswith(
        "Round 2 cannot be paired: the 3 players still in are an odd number, and each has had a bye or a win by "
        "forfeit (FIDE's rules:")


def test_a_swiss_taking_late_entries_may_start_with_fewer_players_than_its_rounds_need(make_player):
    section = section_with(players(make_player, 4), format="swiss", swiss_system="dutch", rounds=4,
                           late_entry_rounds=2, round_interval=timedelta(hours=1))
    assert section.status == Section.Status.RUNNING  # a fifth may still enter


@pytest.mark.parametrize(("rounds", "field", "words"), [
    (1, 1, "a Swiss of 1 round needs at least 2 players (nobody meets anyone twice), and it has 1. Wait for more "
           "entries."),
    (3, 2, "a Swiss of 3 rounds needs at least 4 players (nobody meets anyone twice), and it has 2. Edit the section "
           "to 1 round or fewer"),
])
def test_the_refusal_of_too_many_rounds_counts_in_words(make_player, rounds, field, words):
    from league.competitions.unpairable import swiss_rounds_refusal

    section = section_with(players(make_player, 2), format="swiss", swiss_system="dutch", rounds=rounds, start=False)
    assert words in swiss_rounds_refusal(section, field)
