"""Platform-wide periodic tasks."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from celery import shared_task
from channels.layers import get_channel_layer
from django.utils import timezone

from .notifications import PLATFORM_GROUP


@shared_task(name="config.tasks.heartbeat")
def heartbeat() -> str:
    """Tell every open page the platform's worker and beat are alive.

    It is also the smallest end-to-end check of the runtime: beat schedules it, a
    worker runs it, and its message reaches the websockets through the channel layer.
    """
    at = timezone.now().isoformat()
    async_to_sync(get_channel_layer().group_send)(PLATFORM_GROUP, {"type": "platform.heartbeat", "at": at})
    return at
