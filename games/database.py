"""The one way a socket runs a database call: ``run(func, **kwargs)``, used by every
consumer (the game, notifications and section sockets) and by the sockets' token or
session lookup (config/asgi.py). Where it runs is chosen once per process, from the
settings (``way``), and made ready as the server starts (``start``):

- ``InWorkerProcesses`` (``LIVE_DB_PROCESSES`` > 0; PostgreSQL's default is 2): in
  database worker processes of the server (games/workers.py), each with its own
  interpreter lock and connection, so the event loop that relays frames never waits for
  the lock behind the ORM or a template. On the browser's path (docs/benchmarks-live.md,
  "Sixth round") one server process held 15-25 games of 12 screens with them, none
  at 10-20 with the calls on a thread pool beside the loop (which this module no
  longer has), and under 5 with every call on Channels' thread and the ORM's reads.
- ``OnChannelsThread`` (SQLite: the embedded runtime, and the suite's in-process
  consumers): Channels' ``database_sync_to_async``, one thread; SQLite has one writer.
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings

from . import workers
from .workers import MOVES, SOCKETS

__all__ = ["MOVES", "SOCKETS", "run", "start", "way"]


class DatabaseCalls(abc.ABC):
    """A way to run ``func(**kwargs)`` for a socket, with Django's connection handling."""

    #: Each call takes a connection and gives it back itself, so the game consumer skips
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
        try:
            return await workers.call(func, lane, **kwargs)
        except workers.CannotCross:
            # Arguments too deeply nested to pickle (a junk frame: a move of hundreds of
            # nested lists). Run here, as the embedded runtime does, so it is answered as
            # there (the engine's malformed-move), not dropped with the socket.
            return await OnChannelsThread().run(func, lane, kwargs)


class OnChannelsThread(DatabaseCalls):
    returns_connections = False  # Channels' consumer closes them before each message

    async def run(self, func: Callable[..., Any], lane: str, kwargs: dict[str, Any]) -> Any:
        return await database_sync_to_async(func)(**kwargs)


@functools.cache
def way() -> DatabaseCalls:
    """This process's way, chosen from the settings at its first use."""
    return InWorkerProcesses() if settings.LIVE_DB_PROCESSES else OnChannelsThread()


def start() -> None:
    """Choose the way and make it ready (config/asgi.py, as the server starts)."""
    way().start()


async def run(func: Callable[..., Any], /, lane: str = SOCKETS, **kwargs: Any) -> Any:
    """``func(**kwargs)``, awaited: a move, resignation or time-out claim names
    ``lane=MOVES``; anything else is a socket coming or going (``SOCKETS``)."""
    return await way().run(func, lane, kwargs)
