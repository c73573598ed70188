"""The bare control for bench/live.py: the live stack with nothing of the platform in it.

One ``AsyncJsonWebsocketConsumer`` at ``/ws/games/<id>/``: each socket joins
``game-<id>`` and every move a socket sends is ``group_send`` to the game's sockets
through the same channel layer the platform uses (RedisPubSubChannelLayer, same host
options). No database, no engine, no auth, no origin check: what is left is uvicorn,
Channels and Redis, so the platform's figures can stand as a ratio of these.

Frames mirror the game protocol (docs/protocol.md) so the same clients drive both:
``state`` on connect (after the group join), ``ack`` to the mover, ``update`` to all.
With ``RELAY_BOARD`` (a file: bench/live.py's browser mode writes a board partial the
platform rendered) every ``state`` and ``update`` carries that HTML as its ``board``, as
the platform's frames do when a page asks for its board over the socket, so both sides
carry the same bytes (and deflate the same markup).

Run (bench/live.py does this)::

    REDIS_URL=redis://127.0.0.1:6379/0 uvicorn bench.relay_asgi:application --lifespan off
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import django
from django.conf import settings

if not settings.configured:
    # Only what Channels reads: the layer. Same backend and host options as
    # config/settings/base.py, so the control differs from the platform by the platform.
    settings.configure(
        INSTALLED_APPS=["channels"],
        CHANNEL_LAYERS={
            "default": {
                "BACKEND": os.environ.get("RELAY_LAYER", "channels_redis.pubsub.RedisPubSubChannelLayer"),
                "CONFIG": {
                    "hosts": [
                        {
                            "address": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
                            "socket_timeout": None,
                            "socket_connect_timeout": 10,
                            "max_connections": 10000,
                        }
                    ],
                    "prefix": os.environ.get("CHANNEL_PREFIX", "relay"),
                },
            }
        },
    )
    django.setup()

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.routing import ProtocolTypeRouter, URLRouter
from django.urls import path

#: What each state and update frame adds: the board, or nothing (API mode).
BOARD: dict[str, Any] = (
    {"status": "active", "board": Path(os.environ["RELAY_BOARD"]).read_text()} if os.environ.get("RELAY_BOARD") else {}
)


class RelayConsumer(AsyncJsonWebsocketConsumer):
    """Relays each move to every socket of the game; keeps no state but the ply it saw."""

    async def connect(self) -> None:
        self.group = f"game-{int(self.scope['url_route']['kwargs']['game_id'])}"
        await self.accept()
        # Join before "state", as the platform does: the client may move once it has it.
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.send_json({"type": "state", "ply": 0, **BOARD})

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if (
            not isinstance(content, dict)
            or content.get("type") != "move"
            or not isinstance(content.get("ply"), int)
        ):
            await self.send_json({"type": "error", "code": "malformed-frame", "message": "Send a move."})
            return
        ply = content["ply"] + 1
        await self.channel_layer.group_send(
            self.group, {"type": "relay.update", "ply": ply, "move": content.get("move")}
        )
        await self.send_json({"type": "ack", "ply": ply})

    async def relay_update(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "update", "ply": event["ply"], "move": event["move"], **BOARD})


application = ProtocolTypeRouter(
    {"websocket": URLRouter([path("ws/games/<int:game_id>/", RelayConsumer.as_asgi())])}
)
