"""Every game socket catches up with the database by itself (docs/protocol.md, "When
to sync").

A stored change reaches the sockets by a broadcast after commit, and a broadcast can
be lost: the server that stored the move killed before it published, Redis down for a
moment, a publish that failed. So each server process also checks the database: every
``CHECK_SECONDS`` one query reads the version (ply, status) of every game with a socket
open in this process, and a socket still behind a version the database already had at
the previous check gets a fresh ``state`` frame. Whatever process died, the sockets'
own process notices. Waiting one whole check before resyncing leaves a broadcast in
flight the time to arrive, so a busy server sends no needless states.

Bound: a socket behind the database gets its ``state`` within 2 x ``CHECK_SECONDS`` plus
two database round trips (the check, then the state): 2-2.5 s measured, 5 s promised.

Cost: one query per check and server process. On PostgreSQL, with 200 games open in the
process, 1.6 ms median (p99 2.1 ms; 0.7 ms with 50 games), ORM included
(``bench/resync.py``): once a second, under 0.2 % of one database worker's time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import Protocol

from . import database
from .models import Game  # read only

logger = logging.getLogger(__name__)

#: How often each server process compares its sockets with the database.
CHECK_SECONDS = 1.0

#: What the database version of a game is compared by: a change is a new ply or a new
#: status (a start, resignation or time-out changes the status, not the ply), and the
#: status only ever moves forward in this order.
STATUS_ORDER: dict[str, int] = {"open": 0, "active": 1, "finished": 2, "aborted": 2}

Version = tuple[int, int]


def version(ply: int, status: str) -> Version:
    return ply, STATUS_ORDER.get(status, 0)


class Watched(Protocol):
    """A socket the watch keeps up to date (games.consumers.GameConsumer)."""

    game_id: int

    def seen_version(self) -> Version: ...

    async def resync(self) -> None: ...


def stored_versions(*, game_ids: list[int]) -> dict[int, Version]:
    """The one query of a check (run through games/database.py)."""
    rows = Game.objects.filter(pk__in=game_ids).values_list("pk", "ply", "status")
    return {pk: version(ply, status) for pk, ply, status in rows}


class Watch:
    """One event loop's sockets, by game, and the task that checks them."""

    def __init__(self) -> None:
        self.sockets: dict[int, set[Watched]] = {}
        self.stored: dict[int, Version] = {}  # as read at the last check
        self.task: asyncio.Task[None] | None = None

    def add(self, socket: Watched) -> None:
        self.sockets.setdefault(socket.game_id, set()).add(socket)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run(), name="game-resync")

    def discard(self, socket: Watched) -> None:
        sockets = self.sockets.get(socket.game_id)
        if sockets is None:
            return
        sockets.discard(socket)
        if not sockets:
            del self.sockets[socket.game_id]
            self.stored.pop(socket.game_id, None)
        if not self.sockets and self.task is not None:
            self.task.cancel()  # nothing to watch: no query every second for nobody
            self.task = None

    async def _run(self) -> None:
        while self.sockets:
            await asyncio.sleep(CHECK_SECONDS)
            try:
                await self.check()
            except Exception as exc:  # the database away for a moment: the next check tries again
                logger.warning("resync check failed: %r", exc)

    async def check(self) -> None:
        """Resync every socket still behind what the database held at the last check."""
        stored = await database.run(stored_versions, game_ids=list(self.sockets))
        previous, self.stored = self.stored, stored
        behind = [
            socket
            for game_id, held in previous.items()
            for socket in self.sockets.get(game_id, ())
            if socket.seen_version() < held
        ]
        if behind:
            logger.info("resyncing %d socket(s) behind the database", len(behind))
            for outcome in await asyncio.gather(*(s.resync() for s in behind), return_exceptions=True):
                if isinstance(outcome, Exception):
                    logger.warning("resync failed: %r", outcome)


_watches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Watch] = weakref.WeakKeyDictionary()


def watch() -> Watch:
    """This event loop's (each test has a loop of its own)."""
    return _watches.setdefault(asyncio.get_running_loop(), Watch())


async def stop() -> None:
    """Stop this loop's checks (tests, at the end of theirs)."""
    current = _watches.pop(asyncio.get_running_loop(), None)
    if current is not None and current.task is not None:
        current.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await current.task
