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
    #: Django logs each request it refuses as suspicious (a 400: a Host header that is not
    #: ours, too many fields) as an ERROR with its traceback on ``django.security.<the
    #: exception>``, one per request of a scanner (settings.SUSPICIOUS_REQUEST_LOGGERS).
    LOGGERS = ("django.security.",)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if message in self.FAULTS or message.startswith(self.PREFIXES) or record.name.startswith(self.LOGGERS):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True


class OncePerOutage(logging.Filter):
    """A failure logged again and again while it lasts, as one warning line when it
    starts and one a minute while it goes on (with how many were held back), not a
    traceback a second: channels_redis's pub/sub reader logs "Unexpected exception in
    receive task" with its traceback every second while Redis is away (an outside probe
    counted 18 in 17 s of outage). A pause of ``gap`` seconds ends an outage.
    ``prefixes``: messages that start so count too, shown by their first line (beat's
    "Message Error: Couldn't apply scheduled task ..." carries the task's name, the
    cause and, after it, the whole stack: about 150 lines for each due task while the
    broker is away, a chaos probe found)."""

    def __init__(self, messages: Iterable[str] = (), every: float = 60.0, gap: float = 10.0,
                 prefixes: Iterable[str] = ()) -> None:
        super().__init__()
        self.messages, self.every, self.gap = frozenset(messages), every, gap
        self.prefixes = tuple(prefixes)
        self.last_seen: float | None = None
        self.last_logged = 0.0
        self.held_back = 0

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if message not in self.messages:
            if not (self.prefixes and message.startswith(self.prefixes)):
                return True
            message = message.split("\n", 1)[0]
        starts = self.last_seen is None or record.created - self.last_seen > self.gap
        self.last_seen = record.created
        if not starts and record.created - self.last_logged < self.every:
            self.held_back += 1
            return False
        error = record.exc_info[1] if record.exc_info else None
        cause = f": {type(error).__name__}: {error}" if error is not None and str(error) not in message else ""
        held = f" ({self.held_back} more since the last line)" if self.held_back and not starts else ""
        record.msg, record.args = f"{message}{cause}{held}; repeats are logged once a minute while it lasts", ()
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info, record.exc_text = None, None
        self.last_logged, self.held_back = record.created, 0
        return True


class DropNotices(logging.Filter):
    """Drops the records whose message holds one of ``fragments``: library notices meant
    for the platform's developers, with nothing in them for an operator to act on."""

    def __init__(self, fragments: Iterable[str] = ()) -> None:
        super().__init__()
        self.fragments = tuple(fragments)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not any(fragment in message for fragment in self.fragments)
