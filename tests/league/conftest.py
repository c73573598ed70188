"""Fixtures of the league tests."""

from __future__ import annotations

import pytest

from league.models import ClubMembership
from tests.factories import ClubFactory, MembershipFactory
from tests.league.support import eager_tasks


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
