"""The game websocket through Channels' communicator and the real ASGI stack, as the
games and moderation tests open it: players and a game in play, made from async tests,
and a socket that signs in by token."""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.factories import GameFactory

#: A page of this site: the Origin it sends, and the Host its socket is opened on.
ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")


@database_sync_to_async
def token_for(user: Any) -> str:
    from rest_framework.authtoken.models import Token

    return Token.objects.get_or_create(user=user)[0].key


def started_game_sync(p0: Any, p1: Any, variant: str | None = "classic", **kwargs: Any) -> int:
    """A game between p0 (seat 0) and p1 (seat 1), accepted and in play."""
    return GameFactory.create(creator=p0, opponent=p1, variant=variant, **kwargs).pk


started_game = database_sync_to_async(started_game_sync)


async def players(make_player: Any, n: int = 2) -> list[Any]:
    return [await sync_to_async(make_player)() for _ in range(n)]


async def connect(game_id: int, user: Any = None, *, headers: list[tuple[bytes, bytes]] | None = None,
                  path: str | None = None, address: str | None = None) -> WebsocketCommunicator:
    """A game's socket, connected (by token when a user is given; from ``address`` when
    given, as a server names its peer: a test socket has none)."""
    extra = list(headers or [])
    if user is not None:
        extra.append((b"authorization", f"Token {await token_for(user)}".encode()))
    communicator = WebsocketCommunicator(application, path or f"/ws/games/{game_id}/", headers=[*extra, HOST, ORIGIN])
    if address is not None:
        communicator.scope["client"] = [address, 50000]  # read when the application starts, at connect
    connected, _ = await communicator.connect()
    assert connected
    return communicator


class Socket:
    """A WebsocketCommunicator with the frame helpers the tests need."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.ws = communicator
        self.seen: list[dict[str, Any]] = []  # every frame received, for secrecy checks
        self.reveal_at = 0  # index in ``seen`` of the frame after the last reveal

    @classmethod
    async def open(
        cls,
        game_id: int,
        user: Any = None,
        *,
        headers: list[tuple[bytes, bytes]] | None = None,
        path: str | None = None,
    ) -> tuple[Socket, dict[str, Any]]:
        """Connect (by token when a user is given) and return the first frame too."""
        socket = cls(await connect(game_id, user, headers=headers, path=path))
        return socket, await socket.recv()

    async def recv(self, timeout: float = 5) -> dict[str, Any]:
        frame = await self.ws.receive_json_from(timeout=timeout)
        self.seen.append(frame)
        return frame

    async def recv_type(
        self, kind: str, timeout: float = 5, skip: tuple[str, ...] = ("observers",)
    ) -> dict[str, Any]:
        """The next frame of type ``kind``, skipping only the types in ``skip``."""
        while True:
            frame = await self.recv(timeout)
            if frame["type"] in skip and kind != frame["type"]:
                continue
            assert frame["type"] == kind, frame
            return frame

    async def send(self, frame: dict[str, Any]) -> None:
        await self.ws.send_json_to(frame)

    async def send_text(self, text: str) -> None:
        await self.ws.send_to(text_data=text)

    async def drain(self, quiet: float = 0.3) -> list[dict[str, Any]]:
        """Every frame that arrives until the socket is quiet for ``quiet`` seconds."""
        frames = []
        # receive_nothing peeks; a timed-out receive would cancel the application.
        while not await self.ws.receive_nothing(timeout=quiet):
            frames.append(await self.recv())
        return frames

    async def close(self) -> None:
        await self.ws.disconnect()


def pushed_board(game_id: int, user: Any = None) -> str:
    """The board a board-mode socket of ``user`` (None: an observer) is sent after the
    game's latest change: the broadcast's own render (games/boards.py), without a socket."""
    from games import boards, selectors, services

    seat = services.seat_of(selectors.load_game(game_id), user)
    frame = json.loads(boards.update_message(game_id)["boards"][selectors.viewer_key(seat)])
    return str(frame["board"])
