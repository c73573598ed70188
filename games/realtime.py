"""What the services send to a game's websocket group, after commit."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer


def game_group(game_id: int) -> str:
    return f"game-{game_id}"


def send_to_game(game_id: int, message: dict[str, Any]) -> None:
    """Send ``message`` to every socket of the game. Called from transaction.on_commit:
    a move is stored before anyone hears of it; a lost broadcast costs a resync."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(game_group(game_id), message)
