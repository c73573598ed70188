"""The embedded runtime: everything in one process, no server to install.

* Celery's worker and beat run as threads beside the ASGI server, on kombu's in-memory
  transport. Tasks really run asynchronously, off the request path, and beat really
  schedules them; nothing is executed eagerly.
* The channel layer is Channels' in-memory layer, made safe for those threads: a call
  made on another thread's event loop (a task calling ``async_to_sync(group_send)``)
  is carried out on the loop that serves the websockets, so its messages reach them.

With REDIS_URL set none of this is used: the worker and beat are separate processes.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from celery.beat import EmbeddedService
from celery.worker import WorkController
from channels.layers import InMemoryChannelLayer

from .celery import app

logger = logging.getLogger(__name__)


class EmbeddedChannelLayer(InMemoryChannelLayer):
    """InMemoryChannelLayer whose calls from foreign event loops run on its home loop.

    The home loop is the one that first waits for messages (the ASGI server's).
    asyncio queues belong to one loop; touching them from another thread would
    neither be safe nor wake the waiting consumer.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._home: asyncio.AbstractEventLoop | None = None

    def _adopt_current_loop(self) -> None:
        loop = asyncio.get_running_loop()
        if self._home is None or self._home.is_closed() or not self._home.is_running():
            if self._home is not loop:
                # A fresh loop (a restarted server, or the next test) starts clean.
                self._reset_queues()
            self._home = loop

    def _reset_queues(self) -> None:
        # Channels' own shapes: channel -> its queue, group -> {channel: expiry time}.
        self.channels: dict[str, asyncio.Queue[Any]] = {}
        self.groups: dict[str, dict[str, float]] = {}

    async def _on_home(self, call: Callable[..., Coroutine[Any, Any, Any]], *args: Any) -> Any:
        home = self._home
        current = asyncio.get_running_loop()
        if home is None or home is current or home.is_closed() or not home.is_running():
            return await call(*args)
        future = asyncio.run_coroutine_threadsafe(call(*args), home)
        return await asyncio.wrap_future(future)

    async def receive(self, channel: str) -> dict[str, Any]:
        self._adopt_current_loop()
        return await super().receive(channel)

    async def group_add(self, group: str, channel: str) -> None:
        self._adopt_current_loop()
        await super().group_add(group, channel)

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        await self._on_home(super().send, channel, message)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await self._on_home(super().group_send, group, message)

    async def group_discard(self, group: str, channel: str) -> None:
        await self._on_home(super().group_discard, group, channel)


class EmbeddedCelery:
    """A Celery worker and beat running as daemon threads of this process."""

    def __init__(self, *, beat: bool = True) -> None:
        self.beat = beat
        self.worker: Any = None
        self.beat_service: Any = None
        self._threads: list[threading.Thread] = []

    def start(self) -> EmbeddedCelery:
        # WorkController, not app.Worker: the latter installs signal handlers, which
        # only the main thread may do.
        self.worker = WorkController(
            app=app,
            hostname="embedded@localhost",
            pool_cls="solo",
            concurrency=1,
            without_heartbeat=True,
            without_mingle=True,
            without_gossip=True,
            loglevel="INFO",
        )
        worker_thread = threading.Thread(target=self.worker.start, name="celery-worker", daemon=True)
        worker_thread.start()
        self._threads.append(worker_thread)
        if self.beat:
            self.beat_service = EmbeddedService(app, thread=True)
            self.beat_service.start()
        logger.info("Embedded Celery worker%s started", " and beat" if self.beat else "")
        return self

    def stop(self) -> None:
        if self.beat_service is not None:
            self.beat_service.stop()
        if self.worker is not None:
            self.worker.stop(in_sighandler=False)
        for thread in self._threads:
            thread.join(timeout=10)
