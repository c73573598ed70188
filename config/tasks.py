"""Platform-wide periodic tasks."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from accounts.broadcast import send_to_groups

from .notifications import PLATFORM_GROUP


@shared_task(name="config.tasks.heartbeat")
def heartbeat() -> str:
    """Tell every open page the platform's worker and beat are alive.

    It is also the smallest end-to-end check of the runtime: beat schedules it, a
    worker runs it, and its message reaches the websockets through the channel layer.
    """
    at = timezone.now().isoformat()
    send_to_groups([(PLATFORM_GROUP, {"type": "platform.heartbeat", "at": at})])
    return at
