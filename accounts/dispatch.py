"""Queueing a task after a commit, when the broker may be down.

A committed write has happened whatever comes after it: a task that cannot be queued is
logged (one warning naming the task and its arguments) and the caller goes on, so the
write answers success; a periodic sweep finds the work in the database and does it
(docs/operations.md, "When Redis or a worker is down"). The broker's publish is bounded
by the CELERY_BROKER_* timeouts in config/settings/base.py, so a request never hangs on it.
A task someone is waiting for (an AI's reply) is not left for the sweep, which needs
the broker too: it runs in this process instead (``someone_waits``).
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from celery import current_app
from django.db import connections, transaction

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


def enqueue_on_commit(task_name: str, *args: Any, countdown: float | None = None, someone_waits: bool = False) -> None:
    """``enqueue`` once the current transaction commits (at once outside one). With
    ``someone_waits``, a task the broker refuses runs in this process after ``countdown``
    (run_here): a player waiting for the AI's reply waited for the broker's return,
    since the sweep that redoes lost tasks needs it too (a chaos probe). The task must be
    idempotent: the sweep may still do it once the broker is back."""
    def send() -> None:
        if not enqueue(task_name, *args, countdown=countdown) and someone_waits:
            run_here(task_name, *args, countdown=countdown)
    transaction.on_commit(send)


def run_here(task_name: str, *args: Any, countdown: float | None = None) -> None:
    """Run a registered task in this process, on a thread of its own, after ``countdown``
    seconds. If the process dies first, the sweep does the work (as for a task lost)."""
    timer = threading.Timer(countdown or 0, _run, args=(task_name, args))
    timer.daemon = True
    timer.start()


def _run(task_name: str, args: tuple[Any, ...]) -> None:
    try:
        current_app.tasks[task_name](*args)
    except Exception:
        logger.exception("task %s%r, run here while the broker was down, failed (a sweep redoes it)", task_name, args)
    finally:
        connections.close_all()  # this thread's own connections
