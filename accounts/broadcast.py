"""Live hints sent from sync code (a request, a task, an on-commit hook) on the channel
layer, and which sockets are still alive (for the sweeps of observer and presence rows a
crashed server left behind). Imports nothing of Django's models: the database worker processes
(games/workers.py) import it before Django is set up."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import redis
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import decode_hosts
from django.conf import settings

from .unanswered import CHANNEL_LAYER

logger = logging.getLogger(__name__)

#: A group send from a request or a task gives up after this long: a Redis that accepts
#: connections but never answers would otherwise hold the caller for ever.
SEND_SECONDS = 2.0


#: Set on a database worker process while it runs a call (games/workers.py): where the
#: call's live messages go instead of the channel layer.
_handing = threading.local()

Hand = Callable[[str, dict[str, Any]], None]


@contextlib.contextmanager
def handed_to(hand: Hand) -> Iterator[None]:
    """Live messages made in this block (``send_to_groups``, games' ``send_to_game``)
    are not sent but given to ``hand(group, message)``, each as it is made: a database
    worker process passes each to its server at once, so a game's update leaves while the
    worker still runs what follows it (a finished game's notices and signal)."""
    _handing.hand = hand
    try:
        yield
    finally:
        _handing.hand = None


@contextlib.contextmanager
def collecting() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Live messages made in this block are kept, as (group, message), in the list it
    yields, and never sent (tests: a change stored but never announced)."""
    kept: list[tuple[str, dict[str, Any]]] = []
    with handed_to(lambda group, message: kept.append((group, message))):
        yield kept


def handed_over(group: str, message: dict[str, Any]) -> bool:
    """Give the message to the hand of ``handed_to`` if a block has one (True), else
    leave it to the caller to send (False)."""
    hand = getattr(_handing, "hand", None)
    if hand is None:
        return False
    try:
        hand(group, message)
    except OSError as exc:
        # The server this worker hands to is gone (killed mid-call: a broken pipe). The
        # message is lost as a failed send is (the sockets resync from the database); the
        # on-commit hooks after this one (the tasks a finished game queues) must still
        # run, and Django drops them after a hook that raises.
        logger.warning("live message %s to %s lost, its server is gone (clients resync): %r",
                       message.get("type"), group, exc)
    return True


def send_to_groups(messages: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """Send each (group, message) on the channel layer from sync code (a request, a task,
    an on-commit hook), and wait for it. Only a hint: what it says is stored, and pages
    and sockets catch up from the database, so a failed or hung send is logged, never
    raised, and the rest are dropped with it (Redis down: one wait, not one each).
    In a database worker process each is handed to the server instead (``handed_to``)."""
    pending = [(group, message) for group, message in messages if not handed_over(group, message)]
    if not pending:
        return
    layer = get_channel_layer()
    if layer is None or CHANNEL_LAYER.resting():  # it failed a moment ago: lost as then
        return

    async def send_all() -> None:
        for sent, (group, message) in enumerate(pending):
            try:
                await asyncio.wait_for(layer.group_send(group, message), SEND_SECONDS)
            except Exception as exc:  # Redis down or hung
                logger.warning("%d live message(s) lost from %s to %s (the stored truth stands): %r",
                               len(pending) - sent, message.get("type"), group, exc)
                CHANNEL_LAYER.failed(exc)
                return

    async_to_sync(send_all)()


#: Channel names of the sockets open in this process (every consumer keeps it:
#: the game socket and the notifications socket). The
#: embedded runtime is one process, so there this is the whole truth about who is alive,
#: but only in the process that serves the sockets (``SERVING``, set at the first
#: connect): anywhere else (a shell) the registry knows nothing and must not be asked.
LOCAL_CHANNELS: set[str] = set()
SERVING = threading.Event()


def live_channels(names: Iterable[str]) -> set[str] | None:
    """Which of these channel names still belong to an open socket, in any process;
    None when the channel layer cannot tell (then nothing may be swept).

    - Redis pub/sub layer: a socket's channel is a Redis subscription of its server
      process, dropped with the process's connection, so ``PUBSUB NUMSUB`` answers
      exactly, for every process at once.
    - The embedded (in-process) layer: one process serves every socket, so the
      consumer's own registry answers.
    """
    wanted = list(dict.fromkeys(names))
    layer = get_channel_layer()
    if isinstance(layer, RedisPubSubChannelLayer):
        return _subscribed(wanted)
    if isinstance(layer, InMemoryChannelLayer) and SERVING.is_set():
        return {name for name in wanted if name in LOCAL_CHANNELS}
    return None


def _subscribed(names: list[str]) -> set[str]:
    alive: set[str] = set()
    hosts = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts")
    for host in decode_hosts(hosts):  # the channel's own shard answers; the others say 0
        address = host.get("address") or f"redis://{host.get('host', 'localhost')}:{host.get('port', 6379)}"
        client = redis.Redis.from_url(address, socket_connect_timeout=10)
        try:
            for start in range(0, len(names), 500):
                for channel, count in client.pubsub_numsub(*names[start : start + 500]):
                    if count:
                        alive.add(channel.decode() if isinstance(channel, bytes) else channel)
        finally:
            client.close()
    return alive
