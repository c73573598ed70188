"""Pause, resume and pair again from the console: organisers only, with a confirmation
step and a reason, audited, scoped to the club; through the services and the admin."""

from __future__ import annotations

import pytest

from games.models import Game
from league.models import Pairing, Round, Section
from moderation import operations
from moderation.models import AuditEntry

from .support import refused, tournament_section

pytestmark = pytest.mark.django_db


def test_pause_and_resume_are_organisers_only_audited_and_need_a_reason_to_pause(world):
    section = tournament_section(world, [world.player_1, world.player_2], start=False)
    refused("not-organiser", operations.pause_section, actor=world.arbiter_a, section_id=section.pk,
            reason="Fire alarm")
    refused("not-organiser", operations.pause_section, actor=world.organiser_b, section_id=section.pk,
            reason="Fire alarm")
    refused("reason-required", operations.pause_section, actor=world.organiser_a, section_id=section.pk, reason="")
    operations.pause_section(actor=world.organiser_a, section_id=section.pk, reason="Fire alarm")
    section.refresh_from_db()
    assert section.paused_at is not None
    round_1 = Round.objects.get(section=section, number=1)
    refused("paused", operations.start_round_now, actor=world.organiser_a, round_id=round_1.pk)
    operations.resume_section(actor=world.organiser_a, section_id=section.pk)
    section.refresh_from_db()
    assert section.paused_at is None
    assert list(AuditEntry.objects.filter(club=world.club_a, action__startswith="section.")
                .order_by("pk").values_list("action", "reason")) == [("section.pause", "Fire alarm"),
                                                                      ("section.resume", "")]


def test_pair_again_before_any_move(world, make_player):
    third, fourth = make_player(username="third"), make_player(username="fourth")
    section = tournament_section(world, [world.player_1, world.player_2, third, fourth], fmt="swiss")
    round_1 = Round.objects.get(section=section, number=1)
    old = set(round_1.pairings.values_list("game_id", flat=True))
    refused("not-organiser", operations.repair_round, actor=world.arbiter_a, round_id=round_1.pk,
            reason="Wrong seeds")
    refused("reason-required", operations.repair_round, actor=world.organiser_a, round_id=round_1.pk, reason=" ")
    operations.repair_round(actor=world.organiser_a, round_id=round_1.pk, reason="A late arrival was missed")
    assert Game.objects.filter(pk__in=old, status=Game.Status.ABORTED).count() == 2
    assert round_1.pairings.count() == 2 and not round_1.pairings.filter(game_id__in=old).exists()
    audit = AuditEntry.objects.get(action="round.re-pair")
    assert audit.club == world.club_a and len(audit.details["before"]) == len(audit.details["after"]) == 2


@pytest.mark.parametrize("who,allowed", [("superuser", True), ("organiser_a", True), ("arbiter_a", False),
                                         ("organiser_b", False), ("member_a", False)])
def test_the_pause_and_resume_actions_in_the_admin(client, world, who, allowed):
    section = tournament_section(world, [world.player_1, world.player_2])
    client.force_login(getattr(world, who))
    confirm = client.post("/admin/league/section/", {"action": "pause", "_selected_action": [section.pk]})
    if allowed:
        assert "please confirm" in confirm.content.decode()
    client.post("/admin/league/section/", {"action": "pause", "_selected_action": [section.pk], "confirm": "yes",
                                           "reason": "Power cut"})
    section.refresh_from_db()
    assert (section.paused_at is not None) == allowed
    if allowed:
        listed = client.get("/admin/league/section/")
        assert "Paused at" in listed.content.decode()
        client.post("/admin/league/section/", {"action": "resume", "_selected_action": [section.pk],
                                               "confirm": "yes", "reason": ""})
        section.refresh_from_db()
        assert section.paused_at is None
        assert AuditEntry.objects.filter(action="section.resume", club=world.club_a).exists()


@pytest.mark.parametrize("who,allowed", [("organiser_a", True), ("arbiter_a", False), ("organiser_b", False)])
def test_the_pair_again_action_in_the_admin(client, world, who, allowed):
    section = tournament_section(world, [world.player_1, world.player_2])
    round_1 = Round.objects.get(section=section, number=1)
    old = Pairing.objects.get(section=section).game_id
    client.force_login(getattr(world, who))
    client.post("/admin/league/round/", {"action": "re_pair", "_selected_action": [round_1.pk], "confirm": "yes",
                                         "reason": "Board mix-up"})
    assert (Game.objects.get(pk=old).status == Game.Status.ABORTED) == allowed
    assert Pairing.objects.filter(section=section).count() == 1
    assert Section.objects.get(pk=section.pk).status == Section.Status.RUNNING
