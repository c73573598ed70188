"""The console's Pause and Resume on a section already in that state: said, nothing changed
(it did nothing, silently)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from league import competitions as cs
from league.models import Section
from moderation.models import AuditEntry
from tests.factories import players, section_with

from .support import text_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


def act(client, action: str, section: Section, **confirm: str) -> str:
    answer = client.post("/admin/league/section/", {"action": action, "_selected_action": [section.pk], **confirm},
                         follow=True)
    assert answer.status_code == 200
    return text_of(answer.content.decode())


def test_pausing_a_paused_section_says_so_and_changes_nothing(client, organiser, make_player):
    section = section_with(players(make_player, 4), format="swiss", rounds=3, round_interval=timedelta(hours=1),
                           name="Swiss Open")
    cs.pause_section(section_id=section.pk)
    section.refresh_from_db()
    paused_at = section.paused_at
    client.force_login(organiser)
    page = act(client, "pause", section, confirm="yes", reason="Again")
    assert "Swiss Open is already paused: nothing changed." in page
    section.refresh_from_db()
    assert section.paused_at == paused_at
    assert not AuditEntry.objects.filter(action="section.pause").exists()
    # Without the confirmation step too: nothing to confirm.
    assert "Swiss Open is already paused: nothing changed." in act(client, "pause", section)


def test_resuming_a_section_not_paused_says_so_and_changes_nothing(client, organiser, make_player):
    section = section_with(players(make_player, 4), format="swiss", rounds=3, round_interval=timedelta(hours=1),
                           name="Swiss Open")
    client.force_login(organiser)
    page = act(client, "resume", section, confirm="yes", reason="")
    assert "Swiss Open is not paused: nothing changed." in page
    section.refresh_from_db()
    assert section.resumed_at is None
    assert not AuditEntry.objects.filter(action="section.resume").exists()
