"""A process's short memory of a Redis that did not answer, so that one request waits
for it and the next ones do not.

Sync code asks Redis for three things that are only hints or bookkeeping: a live
message (accounts/broadcast.py, games/realtime.py), a throttle's count
(accounts/limits.py) and a task's publish (accounts/dispatch.py). Each is bounded (1-3
s) and each failure is made good from the database: sockets resync within 5 s, sweeps
queue the tasks again, throttles fail open. But with Redis hung, a write that asked all
three waited for each in turn: 3-5 s a write (tests/config/test_redis_down.py), with
the page threads held meanwhile. After a failure, the same service is not asked again
in this process for ``QUIET_SECONDS``; what would have been asked is handled as that
failure is. A failure that is the server's (no answer, no connection) rests every
service on the same Redis server: a write that met the three in turn waited for each
(6.2-6.4 s measured by an outside probe against a hung Redis), and now waits for the
first only.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from kombu.exceptions import OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

#: Failures that say the server did not answer, rather than that one request was wrong.
SERVER_FAILURES = (OSError, TimeoutError, RedisConnectionError, RedisTimeoutError, OperationalError)

#: Redis server (host, port) -> until when every service on it rests.
_server_quiet_until: dict[tuple[str, int], float] = {}

#: How long a process leaves a service alone after it failed to answer: about the time
#: a socket takes to resync by itself, so nothing waits longer for news than it would.
QUIET_SECONDS = 5.0


class Service:
    """One Redis-backed service (the channel layer, the cache, the broker), as this
    process last found it."""

    def __init__(self, name: str, address: Callable[[], Any]) -> None:
        self.name = name
        self.address = address  # its URL in the settings (read when asked: tests change them)
        self.quiet_until = 0.0

    def server(self) -> tuple[str, int] | None:
        """The Redis server (host, port) this service uses, or None (not Redis: embedded)."""
        try:
            url = urlsplit(str(self.address() or ""))
            return (url.hostname or "", url.port or 6379) if url.scheme in ("redis", "rediss") else None
        except (LookupError, TypeError, ValueError):
            return None

    def resting(self) -> bool:
        """True while the last failure is recent: do not ask, handle it as that failure."""
        server = self.server()
        until = max(self.quiet_until, _server_quiet_until.get(server, 0.0) if server else 0.0)
        return time.monotonic() < until

    def failed(self, exc: BaseException) -> None:
        server = self.server() if isinstance(exc, SERVER_FAILURES) else None
        if not self.resting():  # one line per outage, not one per request
            sharing = [s.name for s in SERVICES if s is not self and server and s.server() == server]
            logger.warning("%s did not answer (%r): %s not asked again for %.0f s in this process",
                           self.name, exc, " and ".join(["it", *sharing]), QUIET_SECONDS)
        self.quiet_until = time.monotonic() + QUIET_SECONDS
        if server:
            _server_quiet_until[server] = self.quiet_until

    def reset(self) -> None:
        self.quiet_until = 0.0
        _server_quiet_until.clear()


def _setting(name: str, *keys: Any) -> Callable[[], Any]:
    """Reads ``settings.<name>[key]...`` when called (KeyError and the like: not Redis)."""
    def read() -> Any:
        value: Any = getattr(settings, name, None)
        for key in keys:
            value = value[key]
        return value
    return read


CHANNEL_LAYER = Service("the channel layer", _setting("CHANNEL_LAYERS", "default", "CONFIG", "hosts", 0, "address"))
CACHE = Service("the cache", _setting("CACHES", "default", "LOCATION"))
BROKER = Service("the broker", _setting("CELERY_BROKER_URL"))
SERVICES = (CHANNEL_LAYER, CACHE, BROKER)
