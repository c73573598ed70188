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
failure is.
"""

from __future__ import annotations

import logging
import time

logger = logging.getLogger(__name__)

#: How long a process leaves a service alone after it failed to answer: about the time
#: a socket takes to resync by itself, so nothing waits longer for news than it would.
QUIET_SECONDS = 5.0


class Service:
    """One Redis-backed service (the channel layer, the cache, the broker), as this
    process last found it."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.quiet_until = 0.0

    def resting(self) -> bool:
        """True while the last failure is recent: do not ask, handle it as that failure."""
        return time.monotonic() < self.quiet_until

    def failed(self, exc: BaseException) -> None:
        if not self.resting():  # one line per outage, not one per request
            logger.warning("%s did not answer (%r): not asked again for %.0f s in this process",
                           self.name, exc, QUIET_SECONDS)
        self.quiet_until = time.monotonic() + QUIET_SECONDS

    def reset(self) -> None:
        self.quiet_until = 0.0


CHANNEL_LAYER = Service("the channel layer")
CACHE = Service("the cache")
BROKER = Service("the broker")
SERVICES = (CHANNEL_LAYER, CACHE, BROKER)
