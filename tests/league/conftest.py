"""Fixtures of the league tests."""

from __future__ import annotations

import pytest

from league import competitions as cs
from league.models import ClubMembership
from tests.factories import ClubFactory, MembershipFactory, players, section_with
from tests.league.support import decide, eager_tasks


@pytest.fixture
def eager_celery():
    """Celery tasks run in the caller, as a worker would run them (the tests that need
    a real worker and beat start them: test_competitions_worker.py)."""
    with eager_tasks():
        yield


@pytest.fixture
def club():
    """The chess club (the one tests.factories.section_with's sections belong to)."""
    return ClubFactory.create(name="Chess club", slug="chess-club")


@pytest.fixture
def organiser(make_player, club):
    """An organiser of ``club``."""
    return MembershipFactory.create(club=club, user=make_player(username="olivia"), role=ClubMembership.Role.ORGANISER).user


@pytest.fixture
def one_period_round_robin(make_player):
    """A round robin of three whose tournament is one rating period (rated when it
    ends), round 1 started and its games decided, their results not yet recorded."""
    section = section_with(players(make_player, 3), format="round-robin", start=False)
    section.tournament.rating_period = "tournament"
    section.tournament.save()
    cs.start_round(section_id=section.pk, number=1, force=True)
    decide(section)
    return section
