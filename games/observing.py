"""Who may watch a game (a hook for the apps above ``games``), and who is watching (the
observer rows: the only code that writes them).

``games`` knows nothing of clubs, tournaments or bans, yet the websocket must refuse a
viewer they rule out. So apps that know (moderation) register *watch gates* here, in
their AppConfig.ready; the consumer asks ``check_watch`` when an observer connects and
refuses the socket with the first refusal a gate gives. Players are never asked: a
seat always sees its own game.

A moderator closes an observer's socket at once by sending ``kick_message`` to the
socket's channel name (docs/protocol.md).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from accounts import players
from accounts.broadcast import live_channels

from . import realtime
from .models import Game, Observer

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


#: A gate gets the game (with its rules, as the consumer holds it), the viewer (a User or
#: AnonymousUser) and, for a socket, its viewer key (``viewer_key``; None for an HTTP
#: read, which no cap limits), and answers None (no objection) or a WatchRefusal. Gates
#: run in a sync context: they may query, and on every observer's connect, so cheaply.
WatchGate = Callable[["Game", Any, "str | None"], WatchRefusal | None]

_gates: dict[str, WatchGate] = {}


def register_watch_gate(name: str, gate: WatchGate) -> None:
    """Add (or replace, by name: AppConfig.ready may run twice) a watch gate."""
    _gates[name] = gate


def unregister_watch_gate(name: str) -> None:
    _gates.pop(name, None)


def check_watch(*, game: Game, user: Any, viewer: str | None = None) -> WatchRefusal | None:
    """The first refusal this viewer gets, or None: they may watch. A challenge to one
    player is its two players' own until it is accepted, a lesson its learner's own
    always; then the registered gates ask. ``viewer``: the socket's viewer key (None: an
    HTTP read)."""
    if game.status == Game.Status.OPEN and not any(
        seat.user_id is None and not seat.ai_level for seat in game.seats_in_hand
    ):
        return WatchRefusal("private-challenge", "This challenge is for its two players only; "
                            "it can be watched once it is accepted.")
    if game.status == Game.Status.OPEN and _childs_open_challenge_hidden_from(game, user):
        # Listed (lobby, API) to those who may reach the child alone: by its id, anyone
        # else saw the child's name waiting for an opponent (an outside probe).
        return WatchRefusal("private-challenge", "This open challenge is for its maker's club mates only; "
                            "it can be watched once it is accepted.")
    if game.lesson:  # listed nowhere, and a learner's mistakes are their own
        return WatchRefusal("private-lesson", "A lesson is its learner's own: it cannot be watched.")
    for gate in list(_gates.values()):
        refusal = gate(game, user, viewer)
        if refusal is not None:
            return refusal
    return None


def _childs_open_challenge_hidden_from(game: Game, user: Any) -> bool:
    """Whether ``game``, an open challenge, is a child's that ``user`` may not take
    (``accounts.players.may_reach``, as games.services.accept_challenge asks)."""
    maker = next((seat.user for seat in game.seats_in_hand if seat.user_id == game.created_by_id), None)
    return maker is not None and not players.may_reach(user, maker)


def kick_message(*, code: str = "kicked", message: str) -> dict[str, Any]:
    """The channel-layer message that makes one observer socket close at once."""
    return {"type": KICK_EVENT, "code": code, "message": message}


def view_refusal(*, game: Game, user: Any, seat: int | None) -> WatchRefusal | None:
    """Whether a viewer may read a game over HTTP (its page, board, replay, the API):
    the same gates as a socket for anyone without a seat, except the cap, which counts
    the viewers of open sockets (the page's own socket is refused when it is full)."""
    if seat is not None:
        return None
    return check_watch(game=game, user=user)  # no viewer key: no cap


# -- who is watching: observer rows ----------------------------------------------------
# One row per open socket of someone not seated: bookkeeping for the live count and
# for moderation (who is watching), not game state. Counted by viewer, not by socket:
# a visitor with five tabs open is one observer, and cannot fill a cap of five alone
# (an outside probe did, anonymously). Decision: a signed-in viewer is their account;
# anyone else is their address (as the throttles take it), so a club room behind one
# address counts once. That errs towards letting people in, which a cap on a
# room's screens should; a cap meant to be strict belongs with "signed-in".


# Two queries per connect and per disconnect (a write and a count), each on its own
# worker thread and pooled connection, never behind a move. Every disconnect deletes
# its row at once, also one mid-connect or dropped (accounts.realtime.SafeJsonConsumer).
# A server that dies never runs its sockets' disconnects: ``sweep_stale_observers``
# (Celery beat, every 15 s) deletes the rows whose socket is gone, so they go within
# 25 s. Rows and a sweep, not presence kept in Redis with expiry: moderation needs the
# rows anyway, and the sweep costs 14-18 ms for 1,500 live rows, 70-78 ms for 10,000
# (bench/observer_sweep.py, docs/benchmarks.md), where expiring presence would be a
# write per socket per interval.

#: A row younger than this is never swept: a margin for clocks, since a socket's
#: channel is subscribed before its row is written.
OBSERVER_SWEEP_AFTER = timedelta(seconds=10)


def viewer_key(*, user: Any, address: str | None, channel_name: str) -> str:
    """Who a socket's viewer is, for counting (``Observer.viewer``)."""
    if user.is_authenticated:
        return f"user:{user.pk}"
    if address:
        return f"address:{address}"
    return f"socket:{channel_name}"  # no address given (an in-process test socket)


def observer_count(*, game_id: int) -> int:
    """How many viewers watch the game now (each counted once, whatever their tabs)."""
    return Observer.objects.filter(game_id=game_id).values("viewer").distinct().count()


def cap_reached(*, game_id: int, cap: int, viewer: str) -> bool:
    """Whether ``viewer`` may not join for the cap: it is reached, and they are not
    watching already (another tab of theirs is counted, so this one costs nothing)."""
    if Observer.objects.filter(game_id=game_id, viewer=viewer).exists():
        return False
    return observer_count(game_id=game_id) >= cap


def observer_joined(*, game_id: int, user: Any, channel_name: str, address: str | None = None) -> int:
    """Record a watching socket (from the client's ``address``); the number of observers now."""
    # A channel name is recorded once: by its own socket's connect.
    viewer = viewer_key(user=user, address=address, channel_name=channel_name)
    Observer.objects.create(
        game_id=game_id, user=user if user.is_authenticated else None, channel_name=channel_name, viewer=viewer
    )
    return observer_count(game_id=game_id)


def observer_left(*, channel_name: str) -> None:
    """Forget a watching socket. Its game's sockets hear the new count from
    ``games.consumers.ObserverCounts``, counted once for a burst of comings and goings."""
    Observer.objects.filter(channel_name=channel_name).delete()


def sweep_stale_observers(*, older_than: timedelta = OBSERVER_SWEEP_AFTER) -> int:
    """Delete the observer rows whose socket no longer exists (its server process
    crashed or was killed), and send the games concerned their new count. How many
    rows went. Does nothing when the channel layer cannot tell who is alive."""
    rows = list(
        Observer.objects.filter(joined_at__lt=timezone.now() - older_than).values_list(
            "pk", "game_id", "channel_name"
        )
    )
    alive = live_channels(name for _, _, name in rows) if rows else None
    if alive is None:
        return 0
    dead = [(pk, game_id) for pk, game_id, name in rows if name not in alive]
    if not dead:
        return 0
    with transaction.atomic():
        Observer.objects.filter(pk__in=[pk for pk, _ in dead]).delete()
        games = sorted({game_id for _, game_id in dead})
        counts = dict(
            Observer.objects.filter(game_id__in=games)
            .values("game_id")
            .annotate(n=Count("viewer", distinct=True))
            .values_list("game_id", "n")
        )
        for game_id in games:
            message = {"type": "game.observers", "count": counts.get(game_id, 0)}
            transaction.on_commit(functools.partial(realtime.send_to_game, game_id, message))
    return len(dead)
