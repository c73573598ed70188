"""Who may watch a game: a hook for the apps above ``games``.

``games`` knows nothing of clubs, tournaments or bans, yet the websocket must refuse a
viewer they rule out. So apps that know (moderation) register *watch gates* here, in
their AppConfig.ready; the consumer asks ``check_watch`` when an observer connects and
refuses the socket with the first refusal a gate gives. Players are never asked: a
seat always sees its own game.

A moderator closes an observer's socket at once by sending ``kick_message`` to the
socket's channel name (docs/protocol.md).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import Game

#: Close codes of refused observer sockets (4000-4999 are the application's own).
CLOSE_WATCH_REFUSED = 4403  # not allowed by the observer policy, or banned
CLOSE_OBSERVERS_FULL = 4429  # the observer cap is reached
CLOSE_KICKED = 4410  # a moderator closed this socket

#: The group-message type that closes one observer's socket (handled by the consumer).
KICK_EVENT = "observer.kick"


@dataclass(frozen=True, slots=True)
class WatchRefusal:
    """Why a viewer may not watch: an error code and sentence for the error frame, and
    the close code the socket is closed with."""

    code: str
    message: str
    close_code: int = CLOSE_WATCH_REFUSED


#: A gate gets the game (with its rules, as the consumer holds it) and the viewer (a
#: User or AnonymousUser) and answers None (no objection) or a WatchRefusal. Gates run
#: in a sync context: they may query, and on every observer's connect, so cheaply.
WatchGate = Callable[["Game", Any], WatchRefusal | None]

_gates: dict[str, WatchGate] = {}


def register_watch_gate(name: str, gate: WatchGate) -> None:
    """Add (or replace, by name: AppConfig.ready may run twice) a watch gate."""
    _gates[name] = gate


def unregister_watch_gate(name: str) -> None:
    _gates.pop(name, None)


def check_watch(*, game: Game, user: Any) -> WatchRefusal | None:
    """The first refusal a registered gate gives this viewer, or None: they may watch."""
    for gate in list(_gates.values()):
        refusal = gate(game, user)
        if refusal is not None:
            return refusal
    return None


def kick_message(*, code: str = "kicked", message: str) -> dict[str, Any]:
    """The channel-layer message that makes one observer socket close at once."""
    return {"type": KICK_EVENT, "code": code, "message": message}


def view_refusal(*, game: Game, user: Any, seat: int | None) -> WatchRefusal | None:
    """Whether a viewer may read a game over HTTP (its page, board, replay, the API):
    the same gates as a socket for anyone without a seat, except the cap, which counts
    open observer sockets (the page's own socket is refused when it is full)."""
    if seat is not None:
        return None
    refusal = check_watch(game=game, user=user)
    if refusal is None or refusal.close_code == CLOSE_OBSERVERS_FULL:
        return None
    return refusal
