"""Queueing a task after a commit, when the broker may be down.

A committed write has happened whatever comes after it: a task that cannot be queued is
logged (one warning naming the task and its arguments) and the caller goes on, so the
write answers success; a periodic sweep finds the work in the database and does it
(docs/operations.md, "When Redis or a worker is down"). The broker's publish is bounded
by the CELERY_BROKER_* timeouts in config/settings/base.py, so a request never hangs on it.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from celery import current_app
from django.db import transaction

from .unanswered import BROKER

logger = logging.getLogger(__name__)


def enqueue(task_name: str, *args: Any, countdown: float | None = None) -> bool:
    """Send a task by its registered name; False (and a warning) when the broker refused it,
    or failed a moment ago (accounts/unanswered.py)."""
    if BROKER.resting():
        logger.warning("task %s%r not queued, the broker did not answer a moment ago (a sweep redoes it)",
                       task_name, args)
        return False
    try:
        current_app.tasks[task_name].apply_async(args=args, countdown=countdown)
    except Exception as exc:  # kombu, redis and socket errors alike: the sweep redoes it
        logger.warning("task %s%r not queued, the broker is unreachable (a sweep redoes it): %s",
                       task_name, args, exc)
        BROKER.failed(exc)
        return False
    return True


def enqueue_on_commit(task_name: str, *args: Any, countdown: float | None = None) -> None:
    """``enqueue`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(functools.partial(enqueue, task_name, *args, countdown=countdown))
