"""Shared fixtures. The runtime (embedded or services) follows the environment."""

from __future__ import annotations

import asyncio
import os

import pytest
from django.conf import settings

ON_POSTGRES = bool(os.environ.get("DATABASE_URL", "").startswith(("postgres", "postgresql")))
ON_REDIS = bool(os.environ.get("REDIS_URL"))


def pytest_report_header(config):
    return (
        f"runtime: {'PostgreSQL' if ON_POSTGRES else 'SQLite'} + "
        f"{'Redis' if ON_REDIS else 'embedded channel layer and broker'}"
    )


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "postgres" in item.keywords and not ON_POSTGRES:
            item.add_marker(pytest.mark.skip(reason="needs DATABASE_URL pointing at PostgreSQL"))
        if "redis" in item.keywords and not ON_REDIS:
            item.add_marker(pytest.mark.skip(reason="needs REDIS_URL"))


@pytest.fixture(autouse=True)
def _redis_services_answer_again():
    """A test that made a service fail (accounts/unanswered.py) leaves it resting for a
    few seconds: the next test starts with every service asked again."""
    from accounts import unanswered

    yield
    for service in unanswered.SERVICES:
        service.reset()


@pytest.fixture(autouse=True)
def _process_caches_of_database_reads_forgotten():
    """What a process keeps of the database for good (it holds in production, where the
    rows it read stay) is read again by each test, whose database is its own."""
    from games.templatetags import rule_words

    yield
    rule_words.standard_rules_are.cache_clear()


@pytest.fixture
def make_player(db):
    """``make_player(born=, country=, username=, open_account=, **register_player's own)``:
    a player registered through the service (tests/factories.py's PlayerFactory), named
    ``player1``, ``player2``, ... in each test unless named. A child's account is opened
    by its guardian's consent, through the service, unless ``open_account=False`` (then it
    stays closed, waiting: a closed account plays nothing)."""
    from datetime import date

    from accounts import services
    from accounts.models import GuardianConsent
    from tests.factories import PlayerFactory

    counter = iter(range(1, 10_000))

    def make(*, born: date = date(1990, 5, 17), country: str = "GB", username: str | None = None,
             open_account: bool = True, **extra):
        username = username or f"player{next(counter)}"
        user = PlayerFactory.create(username=username, date_of_birth=born, country=country, **extra)
        waiting = GuardianConsent.objects.filter(user=user, granted_at__isnull=True).first()
        if open_account and waiting is not None:
            services.grant_guardian_consent(token=services.consent_token(waiting))
            user.refresh_from_db()
        return user

    return make


@pytest.fixture
def alice(make_player):
    return make_player(username="alice")


@pytest.fixture
def bob(make_player):
    return make_player(username="bob")


@pytest.fixture
def carol(make_player):
    return make_player(username="carol")


@pytest.fixture
def channel_layers_fresh():
    """A fresh channel layer per test (the in-memory one keeps state between tests)."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture
async def observer_counts_sent():
    """Every observer count a test's sockets left to announce (games.consumers.
    ObserverCounts sends them a moment later) is sent before the test's loop closes:
    none is cut off half-way through its database call."""
    yield
    from games.consumers import observer_counts

    pending = observer_counts().sending
    if pending:
        await asyncio.wait(pending, timeout=10)


assert settings.configured
