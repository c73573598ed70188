"""The one way the live path runs a database call: every call of the game websocket
(games/consumers.py) and the socket's user lookup (config/asgi.py) is ``run(func,
**kwargs)``. Where it runs is chosen once per process, from the settings (``way``), and
made ready as the server starts (``start``, from config/asgi.py). Figures from
docs/benchmarks-live.md:

- ``InWorkerProcesses`` (``LIVE_DB_PROCESSES`` > 0; PostgreSQL's default is 2): in
  database worker processes of the server (games/workers.py), each with its own
  interpreter lock, so no thread takes the lock from the event loop. Two workers held
  75-90 games a server where threads held 50 (fifth round).
- ``OnThreadPool`` (PostgreSQL with ``LIVE_DB_PROCESSES=0``): on ``DB_POOL_MAX - 2``
  threads, each call borrowing a pooled connection and giving it back. On one thread
  a slow move holds up every game of the process: with one, the calls queued for
  100-240 ms at p90-p99; two or three threads gave the tail of eight (third round).
- ``OnChannelsThread`` (SQLite: the embedded runtime and the suite's default):
  Channels' ``database_sync_to_async``, one thread; SQLite has one writer anyway.
"""

from __future__ import annotations

import abc
import asyncio
import functools
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections

from . import workers
from .realtime import called_from
from .workers import MOVES, SOCKETS

__all__ = ["MOVES", "SOCKETS", "run", "start", "way"]


class DatabaseCalls(abc.ABC):
    """A way to run ``func(**kwargs)`` for a socket, with Django's connection handling."""

    #: Each call takes a connection and gives it back itself, so the consumer skips
    #: Channels' close_old_connections before every message (a hop to Channels' one
    #: thread for every frame and every update).
    returns_connections = True

    def start(self) -> None:
        """Made ready as the server starts, not under the first players' moves."""

    @abc.abstractmethod
    async def run(self, func: Callable[..., Any], lane: str, kwargs: dict[str, Any]) -> Any:
        """``func(**kwargs)``, awaited."""


class InWorkerProcesses(DatabaseCalls):
    """``func`` must be a module-level function, its arguments and result picklable;
    moves (``MOVES``) go before connects and disconnects (``SOCKETS``) when every
    worker is busy."""

    def start(self) -> None:
        workers.start()

    async def run(self, func: Callable[..., Any], lane: str, kwargs: dict[str, Any]) -> Any:
        return await workers.call(func, lane, **kwargs)


class OnThreadPool(DatabaseCalls):
    def __init__(self, threads: int, switch_seconds: float) -> None:
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="game-db")
        self.switch_seconds = switch_seconds

    def start(self) -> None:
        # Threads busy in the ORM keep the interpreter lock for the default 5 ms each
        # time the event loop asks for it. 1 ms: p50 13-15 ms instead of 15-23 ms at 25
        # games in a paired run, p99 within the noise (second round).
        sys.setswitchinterval(self.switch_seconds)

    async def run(self, func: Callable[..., Any], lane: str, kwargs: dict[str, Any]) -> Any:
        loop = asyncio.get_running_loop()

        def returning_connections() -> Any:
            # Not channels.db's wrapper: Channels' test communicator turns that one into
            # a no-op, and then every thread would keep a pooled connection forever.
            close_old_connections()
            try:
                with called_from(loop):  # broadcasts go out on our loop, not waited for
                    return func(**kwargs)
            finally:
                close_old_connections()

        return await sync_to_async(returning_connections, thread_sensitive=False, executor=self.executor)()


class OnChannelsThread(DatabaseCalls):
    returns_connections = False  # Channels' consumer closes them before each message

    async def run(self, func: Callable[..., Any], lane: str, kwargs: dict[str, Any]) -> Any:
        return await database_sync_to_async(func)(**kwargs)


@functools.cache
def way() -> DatabaseCalls:
    """This process's way, chosen from the settings at its first use."""
    if settings.LIVE_DB_PROCESSES:
        return InWorkerProcesses()
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    if not isinstance(pool, dict):
        return OnChannelsThread()
    # A few fewer threads than pooled connections, so the thread Django's own sync code
    # uses (HTTP views) always finds one free.
    threads = max(2, pool.get("max_size", 4) - 2)
    return OnThreadPool(threads, settings.GIL_SWITCH_SECONDS)


def start() -> None:
    """Choose the way and make it ready (config/asgi.py, as the server starts)."""
    way().start()


async def run(func: Callable[..., Any], /, lane: str = SOCKETS, **kwargs: Any) -> Any:
    """``func(**kwargs)``, awaited: a move, resignation or time-out claim names
    ``lane=MOVES``; anything else is a socket coming or going (``SOCKETS``)."""
    return await way().run(func, lane, kwargs)
