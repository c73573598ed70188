"""The game websocket: ``/ws/games/<id>/``. Protocol in docs/protocol.md.

Thin by design: every write goes through ``games.services`` (which lock the game row,
let the engine judge, store, and broadcast after commit), every read through
``games.selectors`` (which hide what a viewer may not see). This module only turns
frames into service calls and group messages into frames for one viewer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from accounts.errors import ServiceError
from accounts.realtime import SafeJsonConsumer

from . import observing, selectors, services
from .models import Game, Observer, PrivateNote  # reads only: services write
from .realtime import game_group

#: Close code after "no-such-game" (4000-4999 are the application's own).
CLOSE_NO_SUCH_GAME = 4404


def notes_group(game_id: int, user_id: int) -> str:
    """Every socket one player has open on one game: where their private notes go."""
    return f"game-{game_id}-notes-{user_id}"


# -- database helpers (sync; called through database_sync_to_async) ---------------------


def _seat_for(game_id: int, user: Any) -> tuple[bool, int | None]:
    """(the game exists, the user's seat or None)."""
    game = Game.objects.filter(pk=game_id).prefetch_related("seats").first()
    if game is None:
        return False, None
    return True, services.seat_of(game, user)


def _state_frame(*, game_id: int, seat: int | None, user: Any) -> dict[str, Any]:
    game = selectors.load_game(game_id)
    payload = selectors.game_payload(game, seat)
    frame: dict[str, Any] = {
        "type": "state",
        "ply": payload["ply"],
        "view": payload["view"],
        "game": payload,
        "observers": Observer.objects.filter(game_id=game_id).count(),
    }
    if seat is not None:
        # A player's own notes come back with their state, to nobody else.
        frame["note"] = (
            PrivateNote.objects.filter(game_id=game_id, author=user).values_list("text", flat=True).first()
            or ""
        )
    return frame


class GameConsumer(SafeJsonConsumer):
    """One socket on one game, for a seat (0 or 1) or an observer (seat None)."""

    game_id: int
    user: Any  # a User, or AnonymousUser for anyone not signed in
    seat: int | None  # None: an observer
    last_ply: int  # the newest ply this socket has been sent

    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user") or AnonymousUser()
        self.seat = None
        self.last_ply = -1
        self.groups_joined: list[str] = []
        self.observing = False
        exists, seat = await database_sync_to_async(_seat_for)(self.game_id, self.user)
        await self.accept()
        if not exists:
            await self.send_error("no-such-game", "There is no such game.")
            await self.close(code=CLOSE_NO_SUCH_GAME)
            return
        self.seat = seat
        refusal = None if seat is not None else await database_sync_to_async(observing.check_watch)(
            game_id=self.game_id, user=self.user)
        if refusal is not None:  # moderation's watch gates (games/observing.py)
            await self.send_error(refusal.code, refusal.message)
            await self.close(code=refusal.close_code)
            return
        # Join before reading the state: a move committed in between reaches us as an
        # update, so nothing falls between the state frame and the first update.
        await self._join(game_group(self.game_id))
        if self.user.is_authenticated:
            await self._join(notes_group(self.game_id, self.user.pk))
        if seat is None:
            await self._start_observing()
        await self._send_state()

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if getattr(self, "observing", False):
            await self._stop_observing()

    # -- client frames -------------------------------------------------------------

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        handler = self.handlers.get(content["type"])
        if handler is None:
            await self.send_error("unknown-type", f"Unknown frame type {content['type']!r}.")
            return
        await handler(self, content)

    async def on_sync(self, content: dict[str, Any]) -> None:
        await self._send_state()

    async def on_move(self, content: dict[str, Any]) -> None:
        game = await self._call(
            services.submit_move, ply=content.get("ply"), move=content.get("move"), stale_state=True
        )
        if game is not None:
            await self.send_json({"type": "ack", "ply": game.ply})

    async def on_resign(self, content: dict[str, Any]) -> None:
        game = await self._call(services.resign)
        if game is not None:
            await self.send_json({"type": "ack", "ply": game.ply, "for": "resign"})

    async def on_claim_timeout(self, content: dict[str, Any]) -> None:
        game = await self._call(services.claim_timeout)
        if game is not None:
            await self.send_json({"type": "ack", "ply": game.ply, "for": "claim-timeout"})

    async def on_note(self, content: dict[str, Any]) -> None:
        note = await self._call(services.save_note, text=content.get("text"))
        if note is not None:
            # To the author's own sockets only (other tabs included); never the game group.
            await self.channel_layer.group_send(
                notes_group(self.game_id, self.user.pk), {"type": "game.note", "text": note.text}
            )

    handlers: dict[str, Callable[[GameConsumer, dict[str, Any]], Any]] = {
        "sync": on_sync,
        "move": on_move,
        "resign": on_resign,
        "claim-timeout": on_claim_timeout,
        "note": on_note,
    }

    async def _call(self, service: Callable[..., Any], *, stale_state: bool = False, **kwargs: Any) -> Any:
        """Run a service for this socket's user; a refusal becomes an error frame."""
        if not self.user.is_authenticated:
            # Services expect a user; anyone anonymous watches.
            await self.send_error("not-a-player", "Only the game's players can do that; observers watch.")
            return None
        try:
            return await database_sync_to_async(service)(game_id=self.game_id, user=self.user, **kwargs)
        except ServiceError as err:
            await self.send_error(err.code, err.message)
            if stale_state and err.code == "stale-ply":
                await self._send_state()
            return None

    # -- group messages ------------------------------------------------------------

    async def game_update(self, event: dict[str, Any]) -> None:
        """A stored change: forward only this viewer's payload (computed once for all)."""
        if event["ply"] < self.last_ply:
            return  # an older broadcast overtaken by a newer one: never go backwards
        if self.seat is None and self.user.is_authenticated:
            await self._maybe_take_seat(event)
        payload = event["views"][selectors.viewer_key(self.seat)]
        self.last_ply = event["ply"]
        await self.send_json(
            {"type": "update", "ply": event["ply"], "view": payload["view"], "game": payload}
        )

    async def game_observers(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "observers", "count": event["count"]})

    async def game_note(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "note", "text": event["text"]})

    async def observer_kick(self, event: dict[str, Any]) -> None:
        """A moderator closed this observer's socket (games/observing.py)."""
        await self.send_error(event["code"], event["message"])
        await self.close(code=observing.CLOSE_KICKED)

    # -- helpers -------------------------------------------------------------------

    async def _join(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.append(group)

    async def _send_state(self) -> None:
        frame = await database_sync_to_async(_state_frame)(
            game_id=self.game_id, seat=self.seat, user=self.user
        )
        self.last_ply = max(self.last_ply, frame["ply"])
        await self.send_json(frame)

    async def _start_observing(self) -> None:
        self.observing = True
        count = await database_sync_to_async(services.observer_joined)(
            game_id=self.game_id, user=self.user, channel_name=self.channel_name
        )
        await self._announce_observers(count)

    async def _stop_observing(self) -> None:
        self.observing = False
        count = await database_sync_to_async(services.observer_left)(
            game_id=self.game_id, channel_name=self.channel_name
        )
        await self._announce_observers(count)

    async def _announce_observers(self, count: int) -> None:
        await self.channel_layer.group_send(
            game_group(self.game_id), {"type": "game.observers", "count": count}
        )

    async def _maybe_take_seat(self, event: dict[str, Any]) -> None:
        """An observer who accepted the open challenge now plays: switch views."""
        seats = event["views"][selectors.OBSERVER]["seats"]
        if any(seat["user"] == self.user.get_username() for seat in seats):
            exists, seat = await database_sync_to_async(_seat_for)(self.game_id, self.user)
            if exists and seat is not None:
                self.seat = seat
                await self._stop_observing()
