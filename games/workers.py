"""Worker processes for the database calls of the game websocket (``LIVE_DB_PROCESSES``),
one of the ways of games/database.py.

Why: in one process, the event loop that relays frames and the threads that run the
services share one interpreter lock, and every database round trip hands it back and
forth (docs/benchmarks-live.md). With ``LIVE_DB_PROCESSES = n`` (PostgreSQL only) each
server process runs its consumers' service calls in ``n`` worker processes of its own
instead, each with its own interpreter lock and its own database connection.

- Each worker does one call at a time; the event loop writes the call down the worker's
  pipe and reads the answer back (no helper threads: ``loop.add_reader``).
- Moves jump the queue: when every worker is busy, a waiting move, resignation or
  time-out claim goes before waiting connects and disconnects, so a crowd arriving
  never holds up play.
- A call's live messages (``realtime.send_to_game`` and a notice's push, in on_commit)
  cross the pipe as each is made, ahead of the result, and the server sends them in that
  order at once; it answers the caller once they are sent, as the in-process path does.
  So a game's last move reaches every screen while the worker still runs the end
  notices and the ``game_finished`` signal (docs/benchmarks-live.md, "Ninth round").
- A worker that dies takes no stored move with it (its transaction is rolled back or
  committed): the call is refused with ``try-again``, the game's sockets are told to
  resync (its broadcast may have died with it), and a new worker takes its place. One
  that holds a call past ``CALL_SECONDS`` (stopped, or waiting on a database that does
  not answer) is killed, and so ends the same way: nobody waits on it for ever.
- Workers leave with their server, even one killed outright.
- /healthz fails until one of them can take a call (``readiness``): a worker starts
  Django in a fresh process, 1-2 s idle and about 15 s on a loaded machine (a chaos
  probe), and a load balancer that believed the server ready meanwhile sent it players
  whose moves waited that long.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler
from typing import Any

import django
from django.conf import settings
from django.db import close_old_connections

from accounts import broadcast
from accounts.errors import ServiceError

from . import realtime

logger = logging.getLogger(__name__)

#: What a call is: something a player waits on, or a socket coming or going.
MOVES, SOCKETS = "moves", "sockets"

#: How often a worker checks that the server that started it is still there.
PARENT_CHECK_SECONDS = 1.0
#: A call held longer than this has a stuck worker, which is killed (its caller is told
#: ``try-again``, as for one that died). A move takes milliseconds, and nothing a socket
#: asks comes near: a chaos probe's stopped worker kept a mover waiting until it resumed.
CALL_SECONDS = 30.0

Outcome = tuple[Any, ServiceError | None]


# -- in a worker --------------------------------------------------------------------------


def run(func: Callable[..., Any], kwargs: dict[str, Any], hand: broadcast.Hand) -> Outcome:
    """``func(**kwargs)`` with Django's connection handling around it; each live message
    it makes goes to ``hand(group, message)`` as it is made. Returns (result, the
    ServiceError it raised or None): a refusal travels back as a value, after the
    messages of anything committed before it (a move refused for a time-out still ends
    the game)."""
    close_old_connections()
    with broadcast.handed_to(hand):
        try:
            return func(**kwargs), None
        except ServiceError as err:
            return None, err
        finally:
            close_old_connections()


def _worker_main(conn: Connection, parent_pid: int, started: Any) -> None:
    # Interrupts are the server's to handle: it stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    idle = threading.Event()  # set while no call runs: the parent's watch leaves only then
    threading.Thread(target=_exit_with_parent, args=(parent_pid, idle), daemon=True, name="parent-watch").start()
    # One call at a time on one connection, kept: no pool to borrow from and give back.
    database = settings.DATABASES["default"]
    database.get("OPTIONS", {}).pop("pool", None)
    database["CONN_MAX_AGE"] = None
    django.setup()
    try:
        conn.send("ready")
    except OSError:
        return  # the server stopped while we started (Django's setup takes seconds): nobody to serve
    started.value = 1  # for /healthz, read from a page thread: "ready" is read only by the event loop

    def hand(group: str, message: dict[str, Any]) -> None:
        conn.send_bytes(pickle.dumps(("send", (group, message))))

    while True:
        idle.set()
        try:
            func, kwargs = conn.recv()
        except (EOFError, OSError):
            return  # the server closed our pipe (it is stopping), or died
        idle.clear()
        try:
            outcome = run(func, kwargs, hand)
            answer = pickle.dumps(("done", outcome))
        except (BrokenPipeError, ConnectionResetError):
            return  # the server died mid-call: what the call stored stays stored, and nobody waits
        except Exception as exc:  # not a refusal: a bug, a lost database, an unpicklable result
            logger.exception("database worker call failed")
            answer = pickle.dumps(("failed", repr(exc)))
        try:
            conn.send_bytes(answer)
        except OSError:
            return


def _exit_with_parent(parent_pid: int, idle: threading.Event) -> None:
    """A server killed outright never closes our pipe: leave when it is gone, once the
    call in hand has ended (up to CALL_SECONDS). Cut off between its commit and its
    on-commit hooks, a game's last move lost its result and rating tasks to the sweeps
    (a chaos probe)."""
    while os.getppid() == parent_pid:
        time.sleep(PARENT_CHECK_SECONDS)
    idle.wait(CALL_SECONDS)
    os._exit(0)  # a transaction still open dies with its connection: rolled back


# -- in the server --------------------------------------------------------------------------


class WorkerDied(Exception):
    pass


class CannotCross(Exception):
    """A call whose arguments cannot be pickled for a worker: nested deeper than the
    pickler's recursion limit. Only a junk frame makes one (a move of 500 nested lists,
    which the JSON reader takes); the caller runs it another way (games/database.py)."""


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    conn: Connection
    # A byte of shared memory, 1 once the worker takes calls. Not a multiprocessing Event:
    # its semaphores, never freed as a server process exits, made every stop warn of
    # "leaked semaphore objects" (a chaos probe).
    started: Any
    ready: bool = False
    busy: asyncio.Future[Any] | None = None
    sending: asyncio.Task[None] | None = None  # the last live message of its call, being sent
    overdue: asyncio.TimerHandle | None = None  # kills it if its call outlasts CALL_SECONDS


@dataclass
class _Call:
    payload: bytes  # (func, kwargs), pickled as the pipe sends it
    future: asyncio.Future[Any]


class Workers:
    """A server process's database workers. Started with the server (``start``), and
    driven from its event loop once the first socket arrives (``attach``)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.loop: asyncio.AbstractEventLoop | None = None
        self.workers: list[_Worker] = []
        self.waiting: dict[str, collections.deque[_Call]] = {
            MOVES: collections.deque(),
            SOCKETS: collections.deque(),
        }
        self.delivering: set[asyncio.Task[None]] = set()  # held: the loop keeps only weak references

    def start(self) -> None:
        for _ in range(self.count):
            self._spawn()

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        for worker in self.workers:
            loop.add_reader(worker.conn.fileno(), self._on_answer, worker)

    def _spawn(self) -> None:
        context = multiprocessing.get_context("spawn")  # not fork: the server has threads and sockets
        ours, theirs = context.Pipe()
        started = context.RawValue("b", 0)
        process = context.Process(target=_worker_main, args=(theirs, os.getpid(), started), daemon=True,
                                  name="game-db")
        process.start()
        theirs.close()
        worker = _Worker(process, ours, started)
        self.workers.append(worker)
        if self.loop is not None:
            self.loop.add_reader(ours.fileno(), self._on_answer, worker)

    def _on_answer(self, worker: _Worker) -> None:
        assert self.loop is not None
        # uvloop's add_reader makes the pipe non-blocking; an answer longer than the pipe's
        # buffer arrives in parts and must be read whole, not taken for a dead worker.
        os.set_blocking(worker.conn.fileno(), True)
        try:
            answer = worker.conn.recv()
        except (EOFError, OSError):
            self._replace(worker)
            return
        if answer == "ready":
            worker.ready = True
            self._dispatch()
            return
        kind, value = answer
        if kind == "send":
            # Its own task, after the call's earlier ones: they go out in the order made,
            # and even if the caller has gone.
            worker.sending = self._hold(self._send_after(worker.sending, *value))
            return
        if worker.busy is not None:
            if kind == "done":
                self._hold(self._answer(worker.busy, value, worker.sending))
            elif not worker.busy.done():
                worker.busy.set_exception(RuntimeError(f"database call failed in a worker: {value}"))
        self._done(worker)
        self._dispatch()

    def _hold(self, coroutine: Any) -> asyncio.Task[None]:
        """A task the loop keeps until it ends (the loop itself holds only weak ones)."""
        assert self.loop is not None
        task = self.loop.create_task(coroutine)
        self.delivering.add(task)
        task.add_done_callback(self.delivering.discard)
        return task

    @staticmethod
    async def _send_after(earlier: asyncio.Task[None] | None, group: str, message: dict[str, Any]) -> None:
        if earlier is not None:
            await earlier
        await realtime.send_hint(group, message)  # the caller is answered all the same; sockets resync

    @staticmethod
    async def _answer(future: asyncio.Future[Any], outcome: Outcome, sending: asyncio.Task[None] | None) -> None:
        """Answer a finished call's caller once its live messages are sent (so, as
        in-process, everyone's update goes out before the mover's ack)."""
        if sending is not None:
            await sending
        if future.done():
            return
        result, error = outcome
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    @staticmethod
    def _done(worker: _Worker) -> None:
        if worker.overdue is not None:
            worker.overdue.cancel()
        worker.busy = worker.sending = worker.overdue = None

    @staticmethod
    def _kill_if_still(worker: _Worker, call: asyncio.Future[Any]) -> None:
        if worker.busy is call and worker.process.is_alive():
            logger.error("a database worker held a call for %.0f s; killing it", CALL_SECONDS)
            worker.process.kill()  # its pipe closes: _on_answer replaces it, the caller gets WorkerDied

    def _replace(self, dead: _Worker) -> None:
        assert self.loop is not None
        if dead.overdue is not None:
            dead.overdue.cancel()
        self.loop.remove_reader(dead.conn.fileno())
        dead.conn.close()
        dead.process.join(timeout=0.5)
        self.workers.remove(dead)
        if dead.busy is not None and not dead.busy.done():
            dead.busy.set_exception(WorkerDied())
        logger.error("a database worker died (exit code %s); starting another", dead.process.exitcode)
        self._spawn()

    def submit(self, lane: str, func: Callable[..., Any], kwargs: dict[str, Any]) -> asyncio.Future[Any]:
        assert self.loop is not None
        # Pickled here, in the caller's turn, not in _dispatch: a call that cannot cross is
        # the caller's to answer. Pickled in _dispatch (which also runs from a worker's
        # answer), it raised there, and the game socket that sent it died unanswered.
        try:
            payload = ForkingPickler.dumps((func, kwargs))
        except RecursionError:
            raise CannotCross() from None
        future = self.loop.create_future()
        self.waiting[lane].append(_Call(bytes(payload), future))
        self._dispatch()
        return future

    def _dispatch(self) -> None:
        assert self.loop is not None
        for worker in list(self.workers):
            if not worker.ready or worker.busy is not None:
                continue
            queue = self.waiting[MOVES] or self.waiting[SOCKETS]  # moves first
            if not queue:
                return
            call = queue.popleft()
            try:
                worker.conn.send_bytes(call.payload)
            except OSError:  # it died since its last answer
                queue.appendleft(call)
                self._replace(worker)
                continue
            worker.busy = call.future
            worker.overdue = self.loop.call_later(CALL_SECONDS, self._kill_if_still, worker, call.future)

    def ready_count(self) -> int:
        """How many workers can take a call now (any thread may ask)."""
        return sum(1 for worker in list(self.workers) if worker.started.value and worker.process.is_alive())

    def stop(self) -> None:
        """Close every worker's pipe (it reads the end and exits) and wait for them."""
        for worker in self.workers:
            if self.loop is not None:
                self.loop.remove_reader(worker.conn.fileno())
            worker.conn.close()
        for worker in self.workers:
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.kill()
        self.workers.clear()


_workers: Workers | None = None


def start() -> Workers:
    """Start this process's workers now (the server calls this as it starts), so that
    the first players do not wait for them."""
    global _workers
    if _workers is None:
        _workers = Workers(int(settings.LIVE_DB_PROCESSES))
        _workers.start()
    return _workers


def readiness() -> tuple[int, int] | None:
    """(workers ready, workers) of this process's pool; None where it runs none (the
    embedded runtime, whose calls run on Channels' thread; a process that serves no
    sockets)."""
    pool = _workers
    return None if pool is None else (pool.ready_count(), pool.count)


def _running_workers() -> Workers:
    loop = asyncio.get_running_loop()
    pool = start()
    if pool.loop is not loop:
        pool.attach(loop)
    return pool


async def call(func: Callable[..., Any], lane: str, **kwargs: Any) -> Any:
    """``func(**kwargs)`` in a worker; its broadcasts sent from here. A game's call
    names its ``game_id``: if the worker dies, the game's sockets resync. ``func`` must
    be a module-level function, its arguments and result picklable."""
    try:
        return await _running_workers().submit(lane, func, kwargs)
    except WorkerDied:
        # Whatever it stored stays stored, but its broadcast may be gone: resync everyone.
        if "game_id" in kwargs:
            await realtime.send_hint(realtime.game_group(kwargs["game_id"]), {"type": "game.resync"})
        raise ServiceError(
            "try-again", "The server lost track of that request; here is the current state."
        ) from None
