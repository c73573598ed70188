"""Websocket pieces every app uses: authentication, a safe JSON consumer, a user's group.
The notifications socket itself is the site's (config/notifications.py)."""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import import_module
from types import SimpleNamespace
from typing import Any, ClassVar

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.models import AnonymousUser
from django.http import parse_cookie
from redis.exceptions import RedisError

from . import json_numbers
from .errors import ServiceError, shortened

#: Close code after a flood of frames over the socket's rate (docs/protocol.md).
CLOSE_RATE_LIMITED = 4429
#: The handshake's "Authorization" header names no user: a token that matches no active
#: account, or a header that is not "Token <key>" (docs/protocol.md, "Authentication").
CLOSE_BAD_TOKEN = 4401
#: "Try again later" (RFC 6455): the channel layer (Redis) is unreachable, or a database
#: worker died holding the socket's call (games/workers.py).
CLOSE_TRY_AGAIN_LATER = 1013
#: The account was closed (deactivated in the console, consent withdrawn) while its
#: sockets were open: gone, retrying will not change it (games' 4410, a kick or ban).
CLOSE_ACCOUNT_CLOSED = 4410
ACCOUNT_CLOSED_MESSAGE = "This account was closed: sign in again once it is open."

logger = logging.getLogger(__name__)


def user_group(user_id: int) -> str:
    """The group of a user's notifications sockets: any app sends it ``user.notice``."""
    return f"user-{user_id}"


def account_group(user_id: int) -> str:
    """The group of a signed-in user's game sockets: only ``account.closed`` is sent to it
    (``user_group`` carries notices, which a game socket has no handler for)."""
    return f"account-{user_id}"


#: Schemes a browser sends by itself, to an HTTP authentication in front of the site (a
#: proxy's password): not ours, left alone as REST leaves them. Refused, no page behind
#: such a proxy would open a socket.
PROXY_SCHEMES = frozenset({"basic", "digest", "negotiate", "ntlm"})


@dataclass(frozen=True)
class TokenRefused:
    """Why a handshake's "Authorization" header is refused: the ``bad-token`` error frame."""

    message: str


MALFORMED_HEADER = TokenRefused('The Authorization header must be "Token <key>", the key from '
                                "POST /api/v1/accounts/login/; send none to watch anonymously.")
UNKNOWN_TOKEN = TokenRefused("That token matches no active account (mistyped, or deleted by a log-out): "
                             "get one from POST /api/v1/accounts/login/, or send no Authorization "
                             "header to watch anonymously.")


def _user_for_token(*, key: str) -> Any:
    """The token's active user, or None (REST's 401 ``authentication_failed``)."""
    from rest_framework.authtoken.models import Token

    token = Token.objects.select_related("user").filter(key=key).first()
    return token.user if token is not None and token.user.is_active else None


def _user_for_session(*, session_key: str) -> Any:
    # Django's own check (session hash, backend, fallback secret keys) on the session
    # the cookie names; it reads only request.session.
    session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return get_user(SimpleNamespace(session=session))  # type: ignore[arg-type]  # reads only .session


class WebsocketAuthMiddleware:
    """Who is on the socket, in ``scope["user"]``: an API client by "Authorization:
    Token <key>", as REST does; a browser by its session cookie; anyone else is
    anonymous without a database read. A token that matches no active user (REST's 401),
    or an Authorization header that is not "Token <key>", is refused: the socket is accepted, sent a ``bad-token`` error frame and closed with 4401, which a
    client tells apart from the handshake's other refusals (all an HTTP 403).

    Instead of Channels' cookie, session and auth middleware: no consumer writes the
    session, and those wrap every frame the socket sends to look for a session to save.

    ``run(func, **kwargs)`` runs a lookup: config/asgi.py gives it the sockets' one way
    of running database calls (games/database.py), in the database worker processes
    when there are some, so no thread of the server contends with its event loop."""

    def __init__(self, inner: Any, run: Callable[..., Awaitable[Any]]) -> None:
        self.inner = inner
        self.run = run

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        try:
            user = await self.user(scope)
        except ServiceError:
            # The database worker holding the lookup died (games/workers.py): the handshake
            # is refused (before accept: a 403), not failed with a 500; the client retries.
            logger.warning("websocket %s refused: its user lookup was lost with a database worker", scope.get("path"))
            if (await receive())["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER})
            return None
        if isinstance(user, TokenRefused):
            logger.warning("websocket %s refused (4401): %s", scope.get("path"), user.message)
            if (await receive())["type"] == "websocket.connect":
                # Accepted, then closed: a 403 would read as the origin check's or the
                # per-address cap's, and a browser shows no status at all.
                with contextlib.suppress(OSError):  # the client already gone (uvicorn's ClientDisconnected)
                    await send({"type": "websocket.accept"})
                    await send({"type": "websocket.send", "text": json.dumps(
                        {"type": "error", "code": "bad-token", "message": user.message})})
                    await send({"type": "websocket.close", "code": CLOSE_BAD_TOKEN, "reason": "bad-token"})
            return None
        return await self.inner(dict(scope, user=user), receive, send)

    async def user(self, scope: dict[str, Any]) -> Any:
        """The socket's user, AnonymousUser, or the TokenRefused its header earns."""
        headers = dict(scope.get("headers") or [])
        if b"authorization" in headers:
            words = headers[b"authorization"].decode("latin-1").split()  # as REST splits it
            if not words or words[0].lower() not in PROXY_SCHEMES:
                if len(words) != 2 or words[0].lower() != "token":
                    return MALFORMED_HEADER
                return await self.run(_user_for_token, key=words[1]) or UNKNOWN_TOKEN
        cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
        session_key = cookies.get(settings.SESSION_COOKIE_NAME)
        if session_key:
            return await self.run(_user_for_session, session_key=session_key)
        return AnonymousUser()


async def release_channel(layer: Any, channel: str) -> None:
    """Drop an ended consumer's own channel: its Redis subscription and its queue.
    channels_redis' pub/sub layer drops them only when the consumer's waiting
    ``receive`` is cancelled; when a group message had already arrived as the socket
    closed, Channels cancels a finished task and the subscription stays for the life of
    the process (and ``PUBSUB NUMSUB`` calls the socket alive): 1,023 of 1,500 sockets
    closed under churn (#16). Neither library has a public call for it (4.3.0)."""
    if not isinstance(layer, RedisPubSubChannelLayer):
        return
    own = layer._get_layer()  # this event loop's layer, as every call of the layer uses
    if own.channels.pop(channel, None) is not None:
        try:
            await own._get_shard(channel).unsubscribe(channel)
        finally:
            let_go = getattr(layer, "let_go", None)  # config.channel_layer's: Redis away, told once back
            if let_go is not None:
                let_go(channel)


@dataclass
class FrameBudget:
    """A token bucket: ``burst`` frames at once, refilled at ``rate`` a second."""

    rate: float
    burst: float
    tokens: float = field(init=False)
    stamp: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


#: Open sockets per client address in this process (WEBSOCKET_MAX_PER_ADDRESS), and the
#: frames all of them may send together (WEBSOCKET_ADDRESS_FRAMES_PER_SECOND): without
#: it, 100 sockets of one address each within its own rate asked 1,000 state reads a
#: second between them, and other players' moves waited 0.3-1.2 s for their answer
#: (docs/security.md). Per process, not in Redis: nothing to leak when a process dies,
#: and the event loop is the only writer. N processes let an address have N times both.
_open_by_address: Counter[str] = Counter()
_frames_by_address: dict[str, FrameBudget] = {}
CLOSE_TOO_MANY = CLOSE_RATE_LIMITED  # too many sockets from one address


def socket_address(scope: dict[str, Any]) -> str | None:
    """The client's address as the throttles take it (accounts.limits.client_ip): behind
    NUM_PROXIES proxies, that many places from the right of X-Forwarded-For; else the
    peer's address. None when the server gives none (an in-process test socket)."""
    peer = (scope.get("client") or (None,))[0]
    proxies = settings.NUM_PROXIES
    if proxies:
        forwarded = dict(scope.get("headers") or []).get(b"x-forwarded-for")
        if forwarded:
            hops = forwarded.decode("latin-1").split(",")
            return hops[-min(proxies, len(hops))].strip()
    return peer


class SafeJsonConsumer(AsyncJsonWebsocketConsumer):
    """A JSON consumer that answers any bad frame with an error frame and stays open, and
    limits the frames a socket may send: a token bucket (WEBSOCKET_FRAME_BURST frames,
    refilled at WEBSOCKET_FRAMES_PER_SECOND), and another shared by all the sockets of its
    client address (WEBSOCKET_ADDRESS_FRAME_BURST, WEBSOCKET_ADDRESS_FRAMES_PER_SECOND).
    A frame over either limit is dropped; the first of a run gets a "rate-limited" error
    frame, and WEBSOCKET_FLOOD_FRAMES dropped in a row close the socket with 4429. The
    check costs ~0.2 µs a frame (timeit, this machine), nothing beside a move's
    milliseconds (docs/benchmarks-live.md)."""

    #: The frames this socket takes: each type, with the fields it may carry beside
    #: "type". Another type is refused (unknown-type), and so is another field
    #: (unknown-field, as the REST API refuses a body's): a misspelt field was read as
    #: absent, and a move was played with anything at all beside it.
    frame_fields: ClassVar[dict[str, frozenset[str]]] = {"ping": frozenset()}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.handshake_read = self.accepted = False
        self.frame_rate = settings.WEBSOCKET_FRAMES_PER_SECOND
        self.frame_budget = FrameBudget(self.frame_rate, float(settings.WEBSOCKET_FRAME_BURST))
        self.address_budget: FrameBudget | None = None  # its address's, shared (set in __call__)
        self.frames_dropped = 0  # in a row
        self.closed = False  # closed by either side: frames from now on reach nobody

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Two ways a socket ends that must not leave anything behind.

        - A frame for a client that went away is dropped, never raised. Raised, it ended
          the consumer without ``disconnect`` (a connect still awaiting the database, an
          update or count to a socket just dropped) and left the socket's observer row
          and Redis subscriptions behind: 650 of 1,500 sockets closed under churn (#16).
          The server still delivers the "websocket.disconnect", so ``disconnect`` runs.
        - A Redis failure no handler answered (subscriptions do not fail: with Redis
          away they wait in the process, config/channel_layer.py) is answered, not
          failed with a 500: an ``unavailable`` error frame, then close 1013, "try
          again later" (docs/protocol.md). A database worker that dies holding a call
          no handler answered (the socket's opening read) ends the same way, with
          ``try-again``: the client reconnects and reads the state afresh."""

        address = socket_address(scope)
        counted = False

        def release_address() -> None:
            """The address's place is free once the client is gone, not when the consumer
            has finished its disconnect (a database call that may queue under churn)."""
            nonlocal counted
            if counted and address is not None:
                counted = False
                _open_by_address[address] -= 1
                if not _open_by_address[address]:
                    del _open_by_address[address]
                    _frames_by_address.pop(address, None)

        async def receiving() -> Any:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                self.closed = True  # seen here, before a handler still running sends again
                release_address()
            return message

        async def sending(message: dict[str, Any]) -> None:
            if self.closed:
                return  # uvicorn: RuntimeError "Unexpected ASGI message 'websocket.send', after ... close"
            if message["type"] == "websocket.close":
                self.closed = True
            try:
                await send(message)
            except OSError:  # the ASGI spec's error for a connection gone (uvicorn's ClientDisconnected)
                self.closed = True

        cap = settings.WEBSOCKET_MAX_PER_ADDRESS
        if address is not None and cap and _open_by_address[address] >= cap:
            logger.warning("websocket %s refused: %s holds %d sockets in this process", scope.get("path"), address, cap)
            if (await receiving())["type"] == "websocket.connect":
                await sending({"type": "websocket.close", "code": CLOSE_TOO_MANY})  # before accept: a 403
            return
        if address is not None:
            _open_by_address[address] += 1
            counted = True
            if settings.WEBSOCKET_ADDRESS_FRAMES_PER_SECOND:  # 0: no shared budget (the bench's one address)
                self.address_budget = _frames_by_address.setdefault(address, FrameBudget(
                    settings.WEBSOCKET_ADDRESS_FRAMES_PER_SECOND, float(settings.WEBSOCKET_ADDRESS_FRAME_BURST)))
        try:
            await super().__call__(scope, receiving, sending)
        except (TimeoutError, RedisError, OSError, ServiceError) as exc:
            if isinstance(exc, ServiceError) and exc.code != "try-again":
                raise  # a refusal a handler should have answered: a bug, to be seen
            logger.warning("websocket %s closed 1013: %r", scope.get("path"), exc)
            if not self.handshake_read and (await receiving())["type"] != "websocket.connect":
                return
            if not self.accepted:
                await sending({"type": "websocket.accept"})
            code, message = ((exc.code, exc.message) if isinstance(exc, ServiceError)
                             else ("unavailable", "Live updates are down; try again shortly."))
            await sending({"type": "websocket.send", "text": json.dumps({"type": "error", "code": code,
                                                                         "message": message})})
            await sending({"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER})
        finally:
            release_address()
            if hasattr(self, "channel_name"):
                with contextlib.suppress(TimeoutError, RedisError, OSError):  # Redis down: nothing to release
                    await release_channel(self.channel_layer, self.channel_name)

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        self.handshake_read = True
        await super().websocket_connect(message)

    async def accept(self, *args: Any, **kwargs: Any) -> None:
        await super().accept(*args, **kwargs)
        self.accepted = True

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any) -> None:
        if not self.take_frame_token():
            await self.drop_frame()
            return
        if text_data is None:
            await self.send_error("binary-frame", "Send JSON text frames only.")
            return
        if len(text_data.encode()) > settings.WEBSOCKET_MAX_MESSAGE_BYTES:
            await self.send_error(
                "frame-too-large", f"Frames are limited to {settings.WEBSOCKET_MAX_MESSAGE_BYTES} bytes."
            )
            return
        try:
            # Numbers as the API's bodies read them (accounts.json_numbers): an integer too
            # long for Python was "not valid JSON", and 1e400, NaN and Infinity were read
            # as floats no handler takes and no frame can echo (they are not JSON).
            content = json_numbers.loads(text_data, where="the frame")
        except json_numbers.NumberRefused as exc:
            await self.send_error("bad-number", str(exc))
            return
        except json_numbers.DuplicateKey as exc:  # which of the two would count is no reader's guess
            await self.send_error("duplicate-key", str(exc))
            return
        except ValueError:
            await self.send_error("malformed-json", "That frame is not valid JSON.")
            return
        except RecursionError:  # thousands of nested brackets: small, but too deep to parse
            await self.send_error("malformed-frame", "That frame is nested too deeply.")
            return
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            await self.send_error("malformed-frame", 'A frame is a JSON object with a "type".')
            return
        kind = content["type"]
        fields = self.frame_fields.get(kind)
        if fields is None:
            await self.send_error("unknown-type", f"Unknown frame type {kind!r}.")
            return
        unknown = sorted(key for key in content if key != "type" and key not in fields)
        if unknown:
            takes = " and ".join(f'"{name}"' for name in sorted(fields))
            await self.send_error("unknown-field", f'A "{kind}" frame has no field "{unknown[0]}": it takes '
                                  + (f'{takes} beside "type".' if takes else '"type" alone.'), field=shortened(unknown[0]))
            return
        await self.receive_json(content)

    def take_frame_token(self) -> bool:
        if not self.frame_budget.take():
            return False
        if self.address_budget is not None and not self.address_budget.take():
            return False
        self.frames_dropped = 0
        return True

    async def drop_frame(self) -> None:
        self.frames_dropped += 1
        limit = settings.WEBSOCKET_FLOOD_FRAMES
        if self.frames_dropped == 1:
            await self.send_error(
                "rate-limited", f"Too many frames: at most {self.frame_rate:g} a second from a socket, "
                f"{settings.WEBSOCKET_ADDRESS_FRAMES_PER_SECOND:g} from all of an address's together; "
                "this one was dropped."
            )
        if self.frames_dropped == limit:
            self.frame_budget = FrameBudget(0.0, 0.0)  # closing: no frame is read from now on
            await self.close(code=CLOSE_RATE_LIMITED)

    async def send_error(self, code: str, message: str, **extra: Any) -> None:
        await self.send_json({"type": "error", "code": code, "message": shortened(message), **extra})

    async def account_closed(self, event: dict[str, Any]) -> None:
        """The socket's account was closed (accounts.services.close_account_sockets): a
        socket signed in at connect would otherwise go on moving and resigning for it."""
        await self.send_error("account-closed", event["message"])
        await self.close(code=CLOSE_ACCOUNT_CLOSED)
