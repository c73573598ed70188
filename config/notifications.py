"""The notifications socket (/ws/notifications/): the whole platform's notices (the
heartbeat of config/tasks.py) and a signed-in user's own, which any app sends to
``accounts.realtime.user_group``. A signed-in user's socket is also their presence
(accounts/presence.py): online while one is open."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from accounts import presence
from accounts.broadcast import LOCAL_CHANNELS, SERVING
from accounts.realtime import SafeJsonConsumer, user_group
from games import database

PLATFORM_GROUP = "platform"


class NotificationsConsumer(SafeJsonConsumer):
    """Platform-wide notices (heartbeat) and, for a signed-in user, their own."""

    async def connect(self) -> None:
        self.groups_joined = [PLATFORM_GROUP]
        self.present = False
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.groups_joined.append(user_group(user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        if user is not None and user.is_authenticated:
            # Registered before the row is written: the sweep asks the registry (embedded).
            LOCAL_CHANNELS.add(self.channel_name)
            SERVING.set()
            self.present = True
            unread = await database.run(presence.socket_opened, user_id=user.pk, channel_name=self.channel_name)
        await self.accept()
        if self.present:
            # The count now: notices stored while this page had no socket are not lost on it.
            await self.send_json({"type": "unread", "unread": unread})

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if getattr(self, "present", False):
            LOCAL_CHANNELS.discard(self.channel_name)
            await database.run(presence.socket_closed, channel_name=self.channel_name)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        await self.send_json({"type": "pong"})  # a ping: the only frame it takes (frame_fields)

    async def platform_heartbeat(self, event: dict[str, Any]) -> None:
        # How often it comes, so that a page can tell when it is late (static/js/site.js).
        every = settings.CELERY_BEAT_SCHEDULE["platform-heartbeat"]["schedule"]
        await self.send_json({"type": "heartbeat", "at": event["at"], "every": every})

    async def user_notice(self, event: dict[str, Any]) -> None:
        # A stored notice (accounts/notices.py): its id, kind, text, where to go and the
        # unread count; a page shows a link and the count, a bot reads the fields.
        frame = {"type": "notice", "message": event["message"]}
        frame.update({key: value for key, value in event.items()
                      if key not in ("type", "message") and value not in (None, "")})
        await self.send_json(frame)

    async def user_unread(self, event: dict[str, Any]) -> None:
        # Notices marked read elsewhere (another page, the API): the new count.
        await self.send_json({"type": "unread", "unread": event["unread"]})
