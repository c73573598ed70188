"""Fixtures of the league tests."""

from __future__ import annotations

import pytest

from config.celery import app


@pytest.fixture
def eager_celery():
    """Celery tasks run in the caller, as a worker would run them (the tests that need
    a real worker and beat start them: test_competitions_worker.py)."""
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False
