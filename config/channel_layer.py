"""The Redis channel layer (channels_redis' pub/sub layer) with its subscriptions bounded
in time, and a socket opened while Redis is away served all the same.

- Bounded: that layer runs its connections without a socket timeout, since it reads
  its subscriptions for as long as they last (channels_redis issue #422); so a Redis
  that accepts connections and never answers held every websocket handshake forever
  (a chaos probe, 2026-11-29). Here subscribing a socket's own channel or a group, and
  leaving a group, give up after SUBSCRIBE_SECONDS. Sends are bounded where they are
  made (accounts/broadcast.py, SEND_SECONDS); ``receive`` waits by design.
- Degraded, not refused: a subscription Redis cannot take (down, or not answering) is
  recorded in the process as made, and made in Redis once it answers again, by a task
  that tries every RESUBSCRIBE_SECONDS. So a socket opened during an outage opens and
  works as the sockets opened before it do: its frames are served from the database,
  the updates it misses reach it by the resync (games/resync.py), the live ones again
  once Redis is back. It was refused with 1013 before, so a player whose page reloaded
  during an outage could not move while their clock ran (a chaos probe). After one
  failure the others are not asked for QUIET_SECONDS (accounts/unanswered.py): a hung
  Redis makes one handshake wait, not each.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import weakref
from dataclasses import dataclass, field
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer
from redis.exceptions import RedisError

from accounts.unanswered import CHANNEL_LAYER

logger = logging.getLogger(__name__)

#: Far above a subscription's time on a loaded server (a local Redis answers in well
#: under a millisecond; a 128-player round's pages and handshakes all finish within 2 s,
#: docs/benchmarks-live.md), so only a Redis that does not answer reaches it; and under
#: the 10 s a client library waits for a handshake by default (websockets' open_timeout).
SUBSCRIBE_SECONDS = 5.0

#: How often subscriptions Redis could not take are tried again: once it is back, a
#: socket opened meanwhile hears live updates again within this (the resync covers the
#: gap), and its channel answers ``PUBSUB NUMSUB`` well before the 10 s the observer and
#: presence sweeps leave a new row alone.
RESUBSCRIBE_SECONDS = 1.0

#: What an unreachable or unanswering Redis raises.
UNREACHABLE = (TimeoutError, RedisError, OSError)


@dataclass
class _Unsynced:
    """One event loop's Redis names (a channel, a group's channel) whose subscription
    Redis has not caught up with, and the task that tries again."""

    names: set[str] = field(default_factory=set)
    task: asyncio.Task[None] | None = None


class BoundedRedisChannelLayer(RedisPubSubChannelLayer):
    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._unsynced: weakref.WeakKeyDictionary[RedisPubSubLoopLayer, _Unsynced] = weakref.WeakKeyDictionary()

    async def new_channel(self, prefix: str = "specific.") -> str:
        own = self._get_layer()
        channel = f"{own.prefix}{prefix}{uuid.uuid4().hex}"  # as the library names it
        own.channels[channel] = asyncio.Queue()  # where its messages wait, Redis or not
        await self._subscribe(own, channel)
        return channel

    async def group_add(self, group: str, channel: str) -> None:
        own = self._get_layer()
        name = own._get_group_channel_name(group)
        own.groups.setdefault(name, set()).add(channel)  # as the library's group_add
        await self._subscribe(own, name)

    async def group_discard(self, group: str, channel: str) -> None:
        own = self._get_layer()
        try:
            await asyncio.wait_for(own.group_discard(group, channel), SUBSCRIBE_SECONDS)
        except UNREACHABLE as exc:  # left in the process; Redis is told when it answers
            CHANNEL_LAYER.failed(exc)
            self._later(own, own._get_group_channel_name(group))

    async def receive(self, channel: str) -> Any:
        own = self._get_layer()
        try:
            return await own.receive(channel)
        finally:  # cancelled, its socket gone: the library let the channel go
            self.let_go(channel)

    def let_go(self, name: str) -> None:
        """``name``, no longer wanted in the process, was let go while Redis was away: its
        unsubscribe went nowhere, and redis-py's reconnect subscribes again whatever its
        pub/sub had, so Redis is told once it answers. A probe: all 100 sockets closed
        during an outage stayed subscribed for good (PUBSUB NUMSUB called them alive)."""
        own = self._get_layer()
        if name in own.channels or own.groups.get(name):
            return
        shard = own._get_shard(name)
        connection = shard._pubsub.connection if shard._pubsub is not None else None
        if _held(shard, name) and not (connection is not None and connection.is_connected):
            self._later(own, name)

    def unsynced(self) -> set[str]:
        """This event loop's names Redis has not caught up with (tests, the logs)."""
        own = self._get_layer()
        return set(self._unsynced[own].names) if own in self._unsynced else set()

    async def _subscribe(self, own: RedisPubSubLoopLayer, name: str) -> None:
        if not CHANNEL_LAYER.resting():
            try:
                await asyncio.wait_for(own._get_shard(name).subscribe(name), SUBSCRIBE_SECONDS)
                return
            except UNREACHABLE as exc:
                CHANNEL_LAYER.failed(exc)
        self._later(own, name)

    def _later(self, own: RedisPubSubLoopLayer, name: str) -> None:
        unsynced = self._unsynced.setdefault(own, _Unsynced())
        unsynced.names.add(name)
        if unsynced.task is None or unsynced.task.done():
            unsynced.task = asyncio.get_running_loop().create_task(self._catch_up(own, unsynced),
                                                                   name="channel-layer-resubscribe")

    @staticmethod
    async def _catch_up(own: RedisPubSubLoopLayer, unsynced: _Unsynced) -> None:
        """Bring Redis's subscriptions in line with the process's: subscribed while a
        socket wants the name, unsubscribed once none does."""
        logger.warning("channel layer: %d subscription(s) wait for Redis; live updates resume when it answers",
                       len(unsynced.names))
        caught_up = 0
        # Whether Redis itself answered: a name never subscribed there (its socket came and
        # went during the outage) is let go without asking it, and a dead Redis was said
        # to "answer again" when the only page that waited had moved on (an outage probe).
        answered = False
        while unsynced.names:
            await asyncio.sleep(RESUBSCRIBE_SECONDS)
            for name in list(unsynced.names):
                wanted = name in own.channels or bool(own.groups.get(name))
                shard = own._get_shard(name)
                held = _held(shard, name)
                try:
                    await asyncio.wait_for(shard.subscribe(name) if wanted else _unsubscribe(shard, name), SUBSCRIBE_SECONDS)
                except UNREACHABLE as exc:
                    CHANNEL_LAYER.failed(exc)  # still away: the process keeps leaving it alone
                    break  # all of them next time
                if not wanted and _held(shard, name):
                    continue  # Redis has not confirmed it yet: asked again next time
                answered = answered or wanted or held
                if wanted == (name in own.channels or bool(own.groups.get(name))):
                    unsynced.names.discard(name)  # else its socket came or went meanwhile: again
                    caught_up += 1
        if not answered:
            logger.info("channel layer: no subscription waits for Redis any more (their sockets closed)")
            return
        CHANNEL_LAYER.reset()  # it answers: live messages go out again at once
        logger.warning("channel layer: Redis answers again; %d subscription(s) caught up", caught_up)


def _held(shard: Any, name: str) -> bool:
    """Whether redis-py's pub/sub holds ``name``: subscribed, or to be subscribed again on
    its reconnect (it forgets a name only when Redis confirms the unsubscribe)."""
    return shard._pubsub is not None and name.encode() in shard._pubsub.channels


async def _unsubscribe(shard: Any, name: str) -> None:
    """Unsubscribe ``name``, also when only redis-py's pub/sub still holds it (the
    library's own unsubscribe, sent while Redis was away, forgot it)."""
    await shard.unsubscribe(name)
    if _held(shard, name):
        async with shard._lock:
            await shard._pubsub.unsubscribe(name)
