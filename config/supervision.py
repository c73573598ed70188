"""A server process that uvicorn's --workers started leaves when its supervisor is gone.

uvicorn's supervisor spawns each server process (multiprocessing, spawn) and hands it
the listening socket; killed outright, it left them behind, serving the port on the old
code, and the `web` started again failed with "address already in use" (a chaos probe).
A lone server (uvicorn without --workers, runplatform) has no such parent: its process
manager is the one that watches it."""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
from typing import Any

logger = logging.getLogger(__name__)

#: After asking uvicorn to stop, how long before leaving anyway (sockets that never close).
STOP_SECONDS = 30.0


def watch_supervisor() -> None:
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    threading.Thread(target=_leave_with, args=(parent,), daemon=True, name="supervisor-watch").start()


def _leave_with(parent: Any) -> None:
    parent.join()  # its sentinel: returns once the supervisor has died
    logger.warning("the server's supervisor (pid %s) is gone: this server process stops", parent.pid)
    os.kill(os.getpid(), signal.SIGTERM)  # uvicorn's own shutdown: sockets closed, database workers told
    threading.Event().wait(STOP_SECONDS)
    os._exit(1)
