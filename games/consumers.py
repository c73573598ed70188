"""The game websocket: ``/ws/games/<id>/``. Protocol in docs/protocol.md.

Thin by design: every write goes through ``games.services`` (which lock the game row,
let the engine judge, store, and broadcast after commit), every read through
``games.selectors`` (which hide what a viewer may not see). This module only turns
frames into service calls and group messages into frames for one viewer.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable
from typing import Any, ClassVar, NamedTuple
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from django.contrib.auth.models import AnonymousUser

from accounts.broadcast import LOCAL_CHANNELS, SERVING
from accounts.errors import ServiceError
from accounts.realtime import SafeJsonConsumer, account_group, socket_address

from . import boards, database, observing, resync, selectors, services, sql
from .models import Game, PrivateNote  # reads only: services write
from .realtime import game_group

#: Close code after "no-such-game" (4000-4999 are the application's own).
CLOSE_NO_SUCH_GAME = 4404

#: A game's observer count goes out at most this often from one server process.
OBSERVER_COUNT_SECONDS = 0.25

logger = logging.getLogger(__name__)


class ObserverCounts:
    """The observer counts one event loop has to announce, one game at a time: the first
    change starts a short wait, and when it ends the count is taken and goes out, once.
    The crowd that comes with a new game (or goes with a finished one) makes one frame
    to every socket, not one per observer: at full load those frames were a third of all
    the frames the platform sent. Counted when sent, not taken from the changes: those
    are counted concurrently and finish in any order, so the last to finish may not
    hold the newest count."""

    def __init__(self) -> None:
        self.due: set[int] = set()
        self.sending: set[asyncio.Task[None]] = set()  # held: the loop keeps weak references

    def announce(self, layer: Any, game_id: int) -> None:
        if game_id in self.due:
            return
        self.due.add(game_id)
        task = asyncio.get_running_loop().create_task(self._send_soon(layer, game_id))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)

    async def _send_soon(self, layer: Any, game_id: int) -> None:
        await asyncio.sleep(OBSERVER_COUNT_SECONDS)
        self.due.discard(game_id)  # a change from now on makes another frame
        try:
            count = await database.run(observing.observer_count, game_id=game_id)
            await layer.group_send(game_group(game_id), {"type": "game.observers", "count": count})
        except Exception as exc:  # a count is no move: the next change or a sync corrects it
            logger.warning("observer count not sent: %r", exc)


_observer_counts: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, ObserverCounts] = weakref.WeakKeyDictionary()


def observer_counts() -> ObserverCounts:
    """This event loop's (each test has a loop of its own)."""
    return _observer_counts.setdefault(asyncio.get_running_loop(), ObserverCounts())


# -- database calls (sync; each run through games/database.py) -----------------------------
# The services' results, cut down to what a socket's answer needs: small enough to
# cross back from a database worker process cheaply.


def _play(**kwargs: Any) -> int:
    return services.submit_move(**kwargs).ply


def _resign(**kwargs: Any) -> int:
    return services.resign(**kwargs).ply


def _claim_timeout(**kwargs: Any) -> int:
    return services.claim_timeout(**kwargs).ply


def _save_note(**kwargs: Any) -> None:
    services.save_note(**kwargs)


def _seat_for(*, game_id: int, user: Any) -> tuple[bool, int | None]:
    """(the game exists, the user's seat or None)."""
    game = sql.game(game_id)
    if game is None:
        return False, None
    return True, services.seat_of(game, user)


class State(NamedTuple):
    """A ``state`` frame for one socket, with the version and seat it was read at."""

    frame: dict[str, Any]
    seat: int | None
    status: str


def _open(*, game_id: int, user: Any, channel_name: str, board_mode: bool = False,
          address: str | None = None) -> tuple[State | None, Any]:
    """Everything a new socket needs, in one trip to the database: (its state, None),
    or (None, the refusal) when there is no such game or a watch gate says no.
    Someone without a seat is recorded as an observer here, before the count is taken,
    so the state's count includes them. ``address``: the client's, which names a viewer
    not signed in (games/observing.py, ``viewer_key``)."""
    try:
        game = selectors.load_game(game_id)
    except Game.DoesNotExist:
        return None, observing.WatchRefusal("no-such-game", "There is no such game.", CLOSE_NO_SUCH_GAME)
    seat = services.seat_of(game, user)
    observers = None
    if seat is None:
        viewer = observing.viewer_key(user=user, address=address, channel_name=channel_name)
        refusal = observing.check_watch(game=game, user=user, viewer=viewer)  # moderation's watch gates
        if refusal is not None:
            return None, refusal
        observers = observing.observer_joined(game_id=game_id, user=user, channel_name=channel_name, address=address)
    return _state(game=game, seat=seat, user=user, board_mode=board_mode, observers=observers), None


def _reload_state(*, game_id: int, user: Any, board_mode: bool) -> State:
    """The state again, for the seat the user has now (drawn at the start, it may not be
    the one the socket opened on: games/starting.py, ``draw_at_start``)."""
    game = selectors.load_game(game_id)
    return _state(game=game, seat=services.seat_of(game, user), user=user, board_mode=board_mode)


def _state(*, game: Game, seat: int | None, user: Any, board_mode: bool, observers: int | None = None) -> State:
    """The socket's ``state`` frame: in board mode the board rendered for its seat
    (games/boards.py), else the JSON payload (docs/protocol.md)."""
    frame: dict[str, Any]
    if board_mode:
        payload, board = boards.viewer_board(game, seat)
        frame = boards.board_frame("state", payload, board)
    else:
        payload = selectors.game_payload(game, seat)
        frame = {"type": "state", "ply": payload["ply"], "view": payload["view"], "game": payload}
    frame["observers"] = observing.observer_count(game_id=game.pk) if observers is None else observers
    if seat is not None:
        # A player's own notes come back with their state, to nobody else.
        note = PrivateNote.objects.filter(game_id=game.pk, author_id=user.pk).values_list("text", flat=True)
        frame["note"] = next(iter(note), "")
    return State(frame, seat, payload["status"])


class GameConsumer(SafeJsonConsumer):
    """One socket on one game, for a seat (0 or 1) or an observer (seat None)."""

    game_id: int
    user: Any  # a User, or AnonymousUser for anyone not signed in
    seat: int | None  # None: an observer
    board_mode: bool  # opened with ?board=html: board frames instead of JSON payloads
    last_ply: int  # the newest ply this socket has been sent
    last_status: str  # and the game's status in the frame that brought it
    acked_ply: int  # the newest ply an ack told this socket: no older update follows it

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user") or AnonymousUser()
        self.seat = None
        self.board_mode = parse_qs(self.scope.get("query_string", b"").decode()).get("board") == ["html"]
        self.last_ply = -1
        self.last_status = ""
        self.acked_ply = -1
        self.groups_joined: list[str] = []
        self.observing = False
        await self.accept()
        LOCAL_CHANNELS.add(self.channel_name)
        SERVING.set()
        # Join before reading the state: a move committed in between reaches us as an
        # update, so nothing falls between the state frame and the first update.
        await self._join(game_group(self.game_id))
        if self.user.is_authenticated:  # closed with the account (accounts.services.close_account_sockets)
            await self._join(account_group(self.user.pk))
        state, refusal = await database.run(
            _open, game_id=self.game_id, user=self.user, channel_name=self.channel_name, board_mode=self.board_mode,
            address=socket_address(self.scope),
        )
        if state is None:  # no such game, or moderation's watch gates (games/observing.py)
            await self._leave_groups()
            await self.send_error(refusal.code, refusal.message)
            await self.close(code=refusal.close_code)
            return
        self.seat = state.seat
        self.observing = self.seat is None
        self.last_ply = state.frame["ply"]
        self.last_status = state.status
        await self.send_json(state.frame)
        resync.watch().add(self)  # from now on it catches up with the database by itself
        if self.observing:
            observer_counts().announce(self.channel_layer, self.game_id)

    async def disconnect(self, code: int) -> None:
        await self._forget_socket()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            # A handler's error (or a cancellation) ends the consumer without
            # ``disconnect``: its row and group subscription must not outlive it.
            if hasattr(self, "game_id"):
                await self._forget_socket()

    async def _forget_socket(self) -> None:
        """Everything this socket left in the process, Redis and the database; safe to
        call twice."""
        LOCAL_CHANNELS.discard(self.channel_name)
        resync.watch().discard(self)
        await self._leave_groups()
        if getattr(self, "observing", False):
            await self._stop_observing()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels closes its sync thread's old connections before EVERY message (a
        hop to that one thread per frame and per update): skipped where this consumer's
        database calls return their connections themselves (games/database.py)."""
        if not database.way().returns_connections:
            await super().dispatch(message)
            return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    # -- client frames -------------------------------------------------------------

    frame_fields: ClassVar[dict[str, frozenset[str]]] = {
        "sync": frozenset(),
        "ping": frozenset(),
        "move": frozenset({"ply", "move"}),
        "resign": frozenset(),
        "claim-timeout": frozenset(),
        "note": frozenset({"text"}),
    }

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        # A type of frame_fields (SafeJsonConsumer.receive checked): on_sync, on_claim_timeout...
        await getattr(self, "on_" + content["type"].replace("-", "_"))(content)

    async def on_sync(self, content: dict[str, Any]) -> None:
        await self._send_state()

    async def on_ping(self, content: dict[str, Any]) -> None:
        # The page's check that a quiet socket's server still answers (static/js/game.js).
        await self.send_json({"type": "pong"})

    async def on_move(self, content: dict[str, Any]) -> None:
        ply = await self._call(_play, ply=content.get("ply"), move=content.get("move"), stale_state=True)
        if ply is not None:
            await self._ack(ply)

    async def on_resign(self, content: dict[str, Any]) -> None:
        ply = await self._call(_resign)
        if ply is not None:
            await self._ack(ply, "resign")

    async def on_claim_timeout(self, content: dict[str, Any]) -> None:
        ply = await self._call(_claim_timeout)
        if ply is not None:
            await self._ack(ply, "claim-timeout")

    async def _ack(self, ply: int, what: str | None = None) -> None:
        # The ack can overtake an update still on its way through the layer (the game's
        # start): that one is older than what the player was just told, so it is dropped.
        # Not last_ply: the update for this ply is still to come, and resync must not
        # take the socket for up to date without it.
        self.acked_ply = max(self.acked_ply, ply)
        await self.send_json({"type": "ack", "ply": ply} | ({"for": what} if what else {}))

    async def on_note(self, content: dict[str, Any]) -> None:
        # Stored, then sent to the author's sockets by the service (games.services.save_note).
        await self._call(_save_note, text=content.get("text"))

    async def _call(self, service: Callable[..., Any], *, stale_state: bool = False, **kwargs: Any) -> Any:
        """Run a service for this socket's user; a refusal becomes an error frame."""
        if not self.user.is_authenticated:
            # Services expect a user; anyone anonymous watches.
            await self.send_error("not-a-player", "Only the game's players can do that; observers watch.")
            return None
        try:
            return await database.run(
                service, lane=database.MOVES, game_id=self.game_id, user=self.user, **kwargs
            )
        except ServiceError as err:
            await self.send_error(err.code, err.message)
            if stale_state and err.code in ("stale-ply", "try-again"):
                await self._send_state()
            return None

    # -- group messages ------------------------------------------------------------

    async def game_update(self, event: dict[str, Any]) -> None:
        """A stored change: forward only this viewer's frame in this socket's mode
        (encoded, and its board rendered, once for all: games/boards.py)."""
        if event["ply"] < max(self.last_ply, self.acked_ply):
            return  # an older broadcast overtaken by a newer one, or by an ack: never go backwards
        if (self.seat is None or self.last_status == Game.Status.OPEN) and self.user.is_authenticated:
            await self._seat_again(event)
        self.last_ply = event["ply"]
        self.last_status = event["status"]
        frames = event["boards"] if self.board_mode else event["frames"]
        await self.send(text_data=frames[selectors.viewer_key(self.seat)])

    async def game_resync(self, event: dict[str, Any]) -> None:
        """A database worker died mid-call (games/workers.py): its broadcast may be lost."""
        await self._send_state()

    # -- catching up (games/resync.py) ----------------------------------------------

    def seen_version(self) -> resync.Version:
        return resync.version(self.last_ply, self.last_status)

    async def resync(self) -> None:
        """The database is ahead of what this socket was sent: a broadcast was lost."""
        state = await self._read_state()
        if resync.version(state.frame["ply"], state.status) <= self.seen_version():
            return  # an update reached it meanwhile: never send it back
        self.last_ply, self.last_status = state.frame["ply"], state.status
        await self.send_json(state.frame)

    async def game_observers(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "observers", "count": event["count"]})

    async def game_note(self, event: dict[str, Any]) -> None:
        """A player's private note: for that player's own sockets, and nobody else's."""
        if self.seat is not None and self.user.is_authenticated and self.user.pk == event["author"]:
            await self.send_json({"type": "note", "text": event["text"]})

    async def observer_kick(self, event: dict[str, Any]) -> None:
        """A moderator closed this observer's socket (games/observing.py)."""
        await self.send_error(event["code"], event["message"])
        await self.close(code=observing.CLOSE_KICKED)

    # -- helpers -------------------------------------------------------------------

    async def _join(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.append(group)

    async def _leave_groups(self) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = []

    async def _read_state(self) -> State:
        state: State = await database.run(_reload_state, game_id=self.game_id, user=self.user, board_mode=self.board_mode)
        await self._take_seat(state.seat)
        return state

    async def _send_state(self) -> None:
        try:
            state = await self._read_state()
        except ServiceError as err:
            # This read's worker died too (games/workers.py): the socket stays, told so, and
            # the game-wide resync that the lost call sent reads the state again.
            await self.send_error(err.code, err.message)
            return
        if state.frame["ply"] >= self.last_ply:
            self.last_ply, self.last_status = state.frame["ply"], state.status
        await self.send_json(state.frame)

    async def _stop_observing(self) -> None:
        self.observing = False
        await database.run(observing.observer_left, channel_name=self.channel_name)
        observer_counts().announce(self.channel_layer, self.game_id)

    async def _seat_again(self, event: dict[str, Any]) -> None:
        """The user's seat, read again as the game starts or a seat is taken: an observer
        who accepted the open challenge now plays, and a seat drawn at the start
        (games/starting.py, ``draw_at_start``) may not be the one the socket opened on."""
        if self.user.get_username() in event["players"]:
            exists, seat = await database.run(_seat_for, game_id=self.game_id, user=self.user)
            if exists:
                await self._take_seat(seat)

    async def _take_seat(self, seat: int | None) -> None:
        """This socket's viewer is now ``seat``: an observer who has a seat stops observing."""
        if seat is None or seat == self.seat:
            return
        was_observer, self.seat = self.seat is None, seat
        if was_observer:
            await self._stop_observing()
