"""Websocket pieces every app uses: token auth, a safe JSON consumer, notifications."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib.auth.models import AnonymousUser

PLATFORM_GROUP = "platform"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


@database_sync_to_async
def _user_for_token(key: str) -> Any:
    from rest_framework.authtoken.models import Token

    try:
        return Token.objects.select_related("user").get(key=key).user
    except Token.DoesNotExist:
        return None


class TokenAuthMiddleware:
    """Authenticate API clients by "Authorization: Token <key>", as REST does.

    Runs inside AuthMiddlewareStack: a browser's session user stays unless a token
    header is present; a bad token leaves the connection anonymous.
    """

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        headers = dict(scope.get("headers") or [])
        auth = headers.get(b"authorization", b"").decode("latin-1")
        if auth.lower().startswith("token "):
            user = await _user_for_token(auth[6:].strip())
            scope = dict(scope, user=user if user is not None and user.is_active else AnonymousUser())
        return await self.inner(scope, receive, send)


class SafeJsonConsumer(AsyncJsonWebsocketConsumer):
    """A JSON consumer that answers any bad frame with an error frame and stays open."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if text_data is None:
            await self.send_error("binary-frame", "Send JSON text frames only.")
            return
        if len(text_data.encode()) > settings.WEBSOCKET_MAX_MESSAGE_BYTES:
            await self.send_error(
                "frame-too-large", f"Frames are limited to {settings.WEBSOCKET_MAX_MESSAGE_BYTES} bytes."
            )
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            await self.send_error("malformed-json", "That frame is not valid JSON.")
            return
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            await self.send_error("malformed-frame", 'A frame is a JSON object with a "type".')
            return
        await self.receive_json(content)

    async def send_error(self, code: str, message: str, **extra: Any) -> None:
        await self.send_json({"type": "error", "code": code, "message": message, **extra})


class NotificationsConsumer(SafeJsonConsumer):
    """Platform-wide notices (heartbeat) and, for a signed-in user, their own."""

    async def connect(self) -> None:
        self.groups_joined = [PLATFORM_GROUP]
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            self.groups_joined.append(user_group(user.pk))
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        if content["type"] == "ping":
            await self.send_json({"type": "pong"})
        else:
            await self.send_error("unknown-type", f"Unknown frame type {content['type']!r}.")

    async def platform_heartbeat(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "heartbeat", "at": event["at"]})

    async def user_notice(self, event: dict[str, Any]) -> None:
        # What a notice is about (a pairing, ...) and where to go: a page shows a link,
        # a bot reads the fields.
        frame = {"type": "notice", "message": event["message"]}
        frame.update({key: event[key] for key in ("event", "url", "game", "section", "round", "board")
                      if event.get(key) not in (None, "")})
        await self.send_json(frame)
