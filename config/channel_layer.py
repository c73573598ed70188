"""The Redis channel layer (channels_redis' pub/sub layer) with its subscriptions bounded
in time. That layer runs its connections without a socket timeout, since it reads its
subscriptions for as long as they last (channels_redis issue #422); so a Redis that
accepts connections and never answers held every websocket handshake forever, where a
Redis that is down refuses at once (a chaos probe, 2026-11-29). Here subscribing a
socket's own channel or a group, and leaving a group, give up after SUBSCRIBE_SECONDS:
the handshake then ends with an ``unavailable`` frame and close 1013, as with Redis down
(accounts/realtime.py), and a leaving socket's end is not held. Sends are bounded where
they are made (accounts/broadcast.py, SEND_SECONDS); ``receive`` waits by design."""

from __future__ import annotations

import asyncio

from channels_redis.pubsub import RedisPubSubChannelLayer

#: Far above a subscription's time on a loaded server (a local Redis answers in well
#: under a millisecond; a 128-player round's pages and handshakes all finish within 2 s,
#: docs/benchmarks-live.md), so only a Redis that does not answer reaches it; and under
#: the 10 s a client library waits for a handshake by default (websockets' open_timeout).
SUBSCRIBE_SECONDS = 5.0


class BoundedRedisChannelLayer(RedisPubSubChannelLayer):
    async def new_channel(self, prefix: str = "specific.") -> str:
        return await asyncio.wait_for(self._get_layer().new_channel(prefix), SUBSCRIBE_SECONDS)

    async def group_add(self, group: str, channel: str) -> None:
        await asyncio.wait_for(self._get_layer().group_add(group, channel), SUBSCRIBE_SECONDS)

    async def group_discard(self, group: str, channel: str) -> None:
        await asyncio.wait_for(self._get_layer().group_discard(group, channel), SUBSCRIBE_SECONDS)
