"""The embedded runtime: a real Celery worker thread on the in-memory broker, whose
task messages reach websockets through the in-process channel layer."""

from __future__ import annotations

import asyncio
import logging

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from kombu import Connection

from config.asgi import application

pytestmark = [
    pytest.mark.skipif(not settings.EMBEDDED, reason="the embedded runtime is used only without REDIS_URL"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("channel_layers_fresh"),
]


async def test_a_task_run_by_the_embedded_worker_reaches_the_websocket():
    from config.embedded import EmbeddedCelery
    from config.tasks import heartbeat

    celery = await sync_to_async(EmbeddedCelery(beat=False).start)()
    try:
        ws = WebsocketCommunicator(application, "/ws/notifications/", headers=[(b"host", b"localhost"), (b"origin", b"http://localhost")])
        assert (await ws.connect())[0]
        await sync_to_async(heartbeat.delay)()  # queued on the broker, run by the worker thread
        frame = await ws.receive_json_from(timeout=10)
        assert frame["type"] == "heartbeat" and frame["at"]
        assert frame["every"] == settings.CELERY_BEAT_SCHEDULE["platform-heartbeat"]["schedule"]  # pages tell when one is late
        await ws.disconnect()
    finally:
        await sync_to_async(celery.stop)()


async def test_a_layer_call_from_a_foreign_loop_is_delivered_on_the_home_loop():
    """What a worker thread does: async_to_sync(group_send) on its own loop."""
    import threading

    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("g", channel)

    def from_another_thread():
        async_to_sync(layer.group_send)("g", {"type": "x.y", "n": 1})

    thread = threading.Thread(target=from_another_thread)
    thread.start()
    message = await asyncio.wait_for(layer.receive(channel), timeout=5)
    await asyncio.to_thread(thread.join)  # never block the loop the layer runs on
    assert message == {"type": "x.y", "n": 1}


def test_embedded_default_uses_no_server(caplog):
    assert settings.CELERY_BROKER_URL.startswith("memory://")
    with caplog.at_level(logging.WARNING, logger="kombu"):
        Connection(settings.CELERY_BROKER_URL).clone()  # what Celery's worker does at start
    assert not caplog.records  # a newcomer's first run: no warning about a host
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "config.embedded.EmbeddedChannelLayer"
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
