"""The channel layer's catch-up after an outage says Redis answers again only when it
did (config/channel_layer.py): an outage probe's log read "Redis answers again; 4
subscription(s) caught up" with nothing listening on Redis's port, once the one page
that waited had been left, and the layer asked the dead Redis again at once."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from accounts.unanswered import CHANNEL_LAYER
from config import channel_layer
from config.channel_layer import BoundedRedisChannelLayer
from tests.processes import free_port


def test_a_socket_that_came_and_went_while_redis_was_down_does_not_make_it_answer_again(caplog, monkeypatch):
    monkeypatch.setattr(channel_layer, "RESUBSCRIBE_SECONDS", 0.05)
    dead = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    host = {"address": dead}

    async def open_and_close_a_socket() -> None:
        layer = BoundedRedisChannelLayer(hosts=[host])
        channel = await layer.new_channel()  # Redis cannot take it: left to the catch-up
        assert channel in layer.unsynced()
        waiting = asyncio.ensure_future(layer.receive(channel))
        await asyncio.sleep(0.05)
        waiting.cancel()  # the page is left while Redis is still down
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        for _ in range(100):  # the catch-up finds nobody waiting
            await asyncio.sleep(0.05)
            if not layer.unsynced():
                break
        assert not layer.unsynced()
        await asyncio.sleep(0.1)

    CHANNEL_LAYER.reset()
    with caplog.at_level(logging.INFO, logger="config.channel_layer"):
        asyncio.run(open_and_close_a_socket())
    said = [r.getMessage() for r in caplog.records if r.name == "config.channel_layer"]
    assert not any("answers again" in line for line in said), said
    assert "channel layer: no subscription waits for Redis any more (their sockets closed)" in said
    assert CHANNEL_LAYER.resting()  # still unreached: not asked again at once
    CHANNEL_LAYER.reset()
