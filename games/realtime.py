"""What the services send to a game's websocket group, after commit. (Which sockets
are still alive is accounts.broadcast.live_channels: observers and presence ask it.)"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from accounts.broadcast import SEND_SECONDS, handed_over
from accounts.unanswered import CHANNEL_LAYER

logger = logging.getLogger(__name__)


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


#: Test-only fault: the server process dies, as if killed, between a change's commit and
#: its broadcast (``GAMES_FAULT_EXIT_BEFORE_BROADCAST=1``, read once at start).
_EXIT_BEFORE_BROADCAST = os.environ.get("GAMES_FAULT_EXIT_BEFORE_BROADCAST") == "1"


def send_to_game(game_id: int, message: dict[str, Any]) -> None:
    """Send ``message`` to every socket of the game. Called from transaction.on_commit:
    a move is stored before anyone hears of it; a lost broadcast costs a resync.

    In a database worker process it is handed to the server as it is made, for the
    server to send (accounts.broadcast.handed_to), before it answers the caller, so
    before the mover's ack. Elsewhere (Channels' thread, Celery, HTTP views) it is sent
    and waited for, at most SEND_SECONDS."""
    if handed_over(game_group(game_id), message) or CHANNEL_LAYER.resting():
        return  # (resting: it failed a moment ago, so lost as then: the sockets resync)
    try:
        async_to_sync(_send_bounded)(game_id, message)
    except Exception as exc:  # Redis down or hung: the write stands, the sockets resync
        logger.warning("broadcast to game %s lost (clients resync): %r", game_id, exc)
        CHANNEL_LAYER.failed(exc)


async def _send_bounded(game_id: int, message: dict[str, Any]) -> None:
    await asyncio.wait_for(send_to_group_async(game_group(game_id), message), SEND_SECONDS)


async def send_to_group_async(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to a group on an event loop, and wait for it: a game's (as
    ``send_to_game``), or any other a database worker handed over (a user's notices)."""
    if _EXIT_BEFORE_BROADCAST and message.get("type") == "game.update":
        os._exit(137)  # test-only (tests/games/test_live_e2e.py): stored, never broadcast
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(group, message)


async def send_hint(group: str, message: dict[str, Any]) -> None:
    """Send ``message`` to a group from an event loop (a socket's consumer, the server's
    side of the database workers) as a hint, as ``send_to_game`` does from sync code:
    not asked while Redis rests, given up after SEND_SECONDS, never raised (what it
    says is stored; the sockets resync)."""
    if CHANNEL_LAYER.resting():
        return
    try:
        await asyncio.wait_for(send_to_group_async(group, message), SEND_SECONDS)
    except Exception as exc:  # Redis down or hung
        logger.warning("live message %s to %s lost (clients resync): %r", message.get("type"), group, exc)
        CHANNEL_LAYER.failed(exc)
