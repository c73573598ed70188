"""Live hints sent from sync code (a request, a task, an on-commit hook) on the channel
layer. Imports nothing of Django's models: the database worker processes
(games/workers.py) import it before Django is set up."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

#: A group send from a request or a task gives up after this long: a Redis that accepts
#: connections but never answers would otherwise hold the caller for ever.
SEND_SECONDS = 2.0


def send_to_groups(messages: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """Send each (group, message) on the channel layer from sync code (a request, a task,
    an on-commit hook), and wait for it. Only a hint: what it says is stored, and pages
    and sockets catch up from the database, so a failed or hung send is logged, never
    raised, and the rest are dropped with it (Redis down: one wait, not one each)."""
    pending = list(messages)
    layer = get_channel_layer()
    if layer is None or not pending:
        return

    async def send_all() -> None:
        for sent, (group, message) in enumerate(pending):
            try:
                await asyncio.wait_for(layer.group_send(group, message), SEND_SECONDS)
            except Exception as exc:  # Redis down or hung
                logger.warning("%d live message(s) lost from %s to %s (the stored truth stands): %r",
                               len(pending) - sent, message.get("type"), group, exc)
                return

    async_to_sync(send_all)()
