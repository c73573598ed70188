"""A revised house-rule set reaches the sections not started yet; a section in play keeps
the version its games started under. Found by a moderation probe: an organiser who
edited the club's rules before the event still got the old ones, with no word of it
(league.competitions.sections.follow_rule_set_revision; docs/moderation.md)."""

from __future__ import annotations

import pytest

from league.models import Section
from moderation import services
from tests.factories import section_with

pytestmark = pytest.mark.django_db


def test_sections_still_to_start_play_the_new_version_and_those_in_play_keep_theirs(world, make_player):
    waiting = section_with([world.player_1, world.player_2], format="round-robin", club=world.club_a,
                           tournament="Winter cup", rule_set=world.rules_a, starts_in=3600, start=False)
    playing = section_with([world.member_a, make_player()], format="round-robin", club=world.club_a,
                           tournament="Autumn cup", rule_set=world.rules_a, starts_in=3600)
    assert playing.status == Section.Status.RUNNING and waiting.status == Section.Status.REGISTRATION

    revised = services.save_house_rules(actor=world.organiser_a, rule_set=world.rules_a,
                                        fields={"seconds_per_move": 45})

    waiting.refresh_from_db()
    playing.refresh_from_db()
    assert waiting.rule_set_id == revised.pk and waiting.rule_set.seconds_per_move == 45
    assert playing.rule_set_id == world.rules_a.pk
    # Another club's set revised moves nothing of this club's.
    services.save_house_rules(actor=world.organiser_b, rule_set=world.rules_b, fields={"seconds_per_move": 50})
    waiting.refresh_from_db()
    assert waiting.rule_set_id == revised.pk
