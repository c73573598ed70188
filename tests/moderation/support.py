"""What the console's operation tests share: club A's tournament section, and a
refusal that changes nothing."""

from __future__ import annotations

import pytest

from accounts.errors import ServiceError
from league.models import Pairing, Round
from moderation.models import AuditEntry
from tests.factories import section_with


def tournament_section(world, users, *, start: bool = True, fmt: str = "round-robin"):
    """A section of club A's "Spring cup" by its house rules, starting in an hour, with
    ``users`` entered; ``start``: its round 1 started now."""
    section = section_with(users, format=fmt, club=world.club_a, tournament="Spring cup", rule_set=world.rules_a,
                           starts_in=3600, start=start)
    section.refresh_from_db()
    return section


def refused(code, call, **kwargs):
    before = (AuditEntry.objects.count(), list(Pairing.objects.values_list("status", "result")),
              list(Round.objects.values_list("status", flat=True)))
    with pytest.raises(ServiceError) as err:
        call(**kwargs)
    assert err.value.code == code, err.value.message
    after = (AuditEntry.objects.count(), list(Pairing.objects.values_list("status", "result")),
             list(Round.objects.values_list("status", flat=True)))
    assert after == before
