"""What /healthz reports and what a server says at start-up when Redis is unreachable:
the database, the channel layer and the Celery broker, each checked on its own with
short timeouts, and, in a server that runs database worker processes for its sockets
(games/workers.py), whether one of them can take a call yet (docs/operations.md,
"Health check").

A reason names only the kind of failure (``ConnectionError``, ``TimeoutError``): the
check is unauthenticated, so no address or password leaves the server; the start-up
log line names the address with its password masked.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import redis
from channels.layers import get_channel_layer
from channels_redis.utils import decode_hosts
from django.conf import settings
from django.db import connection
from kombu.utils.url import maybe_sanitize_url

from games import workers

logger = logging.getLogger(__name__)

#: Seconds a check waits for Redis to connect and to answer.
REDIS_CHECK_SECONDS = 1.0

REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def _ping(url: str) -> None:
    client = redis.Redis.from_url(url, socket_connect_timeout=REDIS_CHECK_SECONDS, socket_timeout=REDIS_CHECK_SECONDS)
    try:
        client.ping()
    finally:
        client.close()


def channel_layer_urls() -> list[str]:
    """The Redis addresses of the channel layer; none for the in-process layer."""
    hosts = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts")
    if not hosts:
        return []
    hosts = decode_hosts(hosts)
    return [h.get("address") or f"redis://{h.get('host', 'localhost')}:{h.get('port', 6379)}" for h in hosts]


def broker_urls() -> list[str]:
    """The broker's address when it is Redis; none for kombu's in-memory transport."""
    url = settings.CELERY_BROKER_URL
    return [url] if url.startswith(REDIS_SCHEMES) else []


def cache_urls() -> list[str]:
    cache = settings.CACHES["default"]
    location = cache.get("LOCATION", "")
    return [location] if "redis" in cache["BACKEND"].lower() and isinstance(location, str) and location else []


def check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def check_channel_layer() -> None:
    if get_channel_layer() is None:
        raise RuntimeError("no channel layer")
    for url in channel_layer_urls():
        _ping(url)


def check_broker() -> None:
    for url in broker_urls():
        _ping(url)


class NoDatabaseWorkerReady(Exception):
    """This server's database workers are still starting (or all being replaced): a
    socket's handshake and moves would wait for them."""


def check_database_workers() -> None:
    ready = workers.readiness()
    if ready is not None and not ready[0]:
        raise NoDatabaseWorkerReady(f"0 of {ready[1]} ready")


#: The components without which this process cannot serve players (/healthz's 503); the
#: others (Redis) only degrade it.
SERVING = frozenset({"database", "database_workers"})

CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "channel_layer": check_channel_layer,
    "broker": check_broker,
}


def report() -> dict[str, dict[str, str]]:
    """Each component's ``{"status": "ok"}`` or ``{"status": "error", "reason": ...}``;
    ``database_workers`` only in a process that runs them."""
    components = {}
    checks = dict(CHECKS)
    if workers.readiness() is not None:
        checks["database_workers"] = check_database_workers
    for name, check in checks.items():
        try:
            check()
        except Exception as exc:  # any failure of a component is that component's answer
            logger.warning("health check: %s is down: %r", name, exc)
            components[name] = {"status": "error", "reason": type(exc).__name__}
        else:
            components[name] = {"status": "ok"}
    return components


def log_unreachable_redis() -> bool:
    """One ERROR line when a Redis the settings use (channel layer, broker, cache) does
    not answer; True when one did not. The server starts all the same: pages that need
    no Redis are served, writes still commit (docs/operations.md)."""
    uses: dict[str, list[str]] = {}
    for use, urls in (("channel layer", channel_layer_urls()), ("broker", broker_urls()), ("cache", cache_urls())):
        for url in urls:
            uses.setdefault(url, []).append(use)
    down = []
    for url, names in uses.items():
        try:
            _ping(url)
        except Exception as exc:  # refused, timed out, refused authentication: all "unreachable"
            down.append(f"{maybe_sanitize_url(url)} ({', '.join(names)}: {type(exc).__name__}: {exc})")
    if down:
        logger.error("Redis unreachable at %s; live updates, task queueing and the API throttles are down "
                     "until it answers (writes still commit; /healthz reports it)", "; ".join(down))
    return bool(down)
