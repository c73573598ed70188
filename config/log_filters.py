"""Logging filters named in settings.LOGGING."""

from __future__ import annotations

import logging
from collections.abc import Iterable


class QuietRoutineTasks(logging.Filter):
    """Drops Celery's INFO lines about the platform's own periodic sweeps (the clock
    check every 5 s, the heartbeat, ...): beat's "Sending due task", the worker's
    "received" and "succeeded". Other tasks keep their lines, and a routine task's
    warnings and errors (a failure, a retry) always pass."""

    def __init__(self, tasks: Iterable[str] = ()) -> None:
        super().__init__()
        self.marks = tuple(mark for task in tasks for mark in (f"({task})", f"{task}["))

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            return True
        message = record.getMessage()
        return not any(mark in message for mark in self.marks)


class ClientFaultsAsWarnings(logging.Filter):
    """A client's fault is one warning line, not a server error with a traceback: uvicorn
    logs a websocket text frame that is not UTF-8 as an error with one (and closes the
    socket with 1007, rightly), and Django logs each 403 of a page that refuses someone
    (PermissionDenied: a player opening an organiser's page) with the exception's
    traceback. Every other record passes unchanged."""

    FAULTS = ("Invalid UTF-8 sequence received from client.",)
    PREFIXES = ("Forbidden (Permission denied):",)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if message in self.FAULTS or message.startswith(self.PREFIXES):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True
