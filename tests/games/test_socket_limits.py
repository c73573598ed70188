"""The websocket's abuse limits, through the real ASGI stack: a socket's frame rate (an
error frame, then a close if the flood goes on), frames nested too deep to parse, and the
sockets one address may hold."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from accounts.realtime import CLOSE_RATE_LIMITED
from config.asgi import application
from tests.sockets import HOST, ORIGIN, Socket, players, started_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("channel_layers_fresh", "observer_counts_sent"),
]

DEEP = "[" * 5000 + "]" * 5000  # 10 kB: under the size limit, far over the parser's depth


async def test_a_flood_gets_an_error_frame_then_the_socket_is_closed(make_player):
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    # No refill to speak of during the test: exactly the burst gets through.
    with override_settings(
        WEBSOCKET_FRAMES_PER_SECOND=0.001, WEBSOCKET_FRAME_BURST=3, WEBSOCKET_FLOOD_FRAMES=5
    ):
        sock, _ = await Socket.open(game_id, p0)
        for _ in range(3):
            await sock.send({"type": "sync"})
            assert (await sock.recv_type("state"))["type"] == "state"
        await sock.send({"type": "sync"})
        error = await sock.recv_type("error")
        assert error["code"] == "rate-limited" and "at most" in error["message"]
        for _ in range(3):  # dropped without another error frame each
            await sock.send({"type": "sync"})
        assert await sock.ws.receive_nothing(timeout=0.3)
        await sock.send({"type": "sync"})  # the fifth dropped in a row
        closing = await sock.ws.receive_output(timeout=5)
        assert closing == {"type": "websocket.close", "code": CLOSE_RATE_LIMITED}


async def test_a_socket_within_its_rate_again_is_served(make_player):
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    with override_settings(WEBSOCKET_FRAMES_PER_SECOND=5, WEBSOCKET_FRAME_BURST=2, WEBSOCKET_FLOOD_FRAMES=50):
        sock, _ = await Socket.open(game_id, p0)
        for _ in range(4):  # sent at once: two pass, then the first dropped one is told
            await sock.send({"type": "dance"})
        codes = [frame["code"] for frame in await sock.drain()]
        assert codes[:2] == ["unknown-type", "unknown-type"] and codes[2] == "rate-limited"
        await asyncio.sleep(0.5)  # 2.5 frames' worth of refill
        await sock.send({"type": "sync"})
        assert (await sock.recv_type("state"))["ply"] == 0
        await sock.close()


async def test_the_notifications_socket_is_limited_too():
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    with override_settings(
        WEBSOCKET_FRAMES_PER_SECOND=0.001, WEBSOCKET_FRAME_BURST=1, WEBSOCKET_FLOOD_FRAMES=2
    ):
        ws = WebsocketCommunicator(
            application, "/ws/notifications/", headers=[HOST, ORIGIN]
        )
        assert (await ws.connect())[0]
        await ws.send_json_to({"type": "ping"})
        assert await ws.receive_json_from() == {"type": "pong"}
        await ws.send_json_to({"type": "ping"})
        assert (await ws.receive_json_from())["code"] == "rate-limited"
        await ws.send_json_to({"type": "ping"})
        assert await ws.receive_output(timeout=5) == {"type": "websocket.close", "code": CLOSE_RATE_LIMITED}


async def test_a_frame_nested_5000_deep_gets_an_error_frame_and_the_socket_stays_usable(make_player):
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    sock, _ = await Socket.open(game_id, p0)
    await sock.send_text(DEEP)
    error = await sock.recv_type("error")
    assert error["code"] == "malformed-frame" and "nested" in error["message"]
    # The same depth inside a frame that is otherwise a move: still answered.
    await sock.send_text('{"type": "move", "ply": 0, "move": ' + DEEP + "}")
    assert (await sock.recv_type("error"))["code"] == "malformed-frame"
    await sock.send({"type": "move", "ply": 0, "move": {"cell": 5}})
    assert await sock.recv_type("ack") == {"type": "ack", "ply": 1}
    await sock.close()


@pytest.mark.parametrize("depth", [100, 500, 900])
async def test_a_move_nested_as_deep_as_the_parser_allows_is_refused_not_dropped(make_player, depth):
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    sock, _ = await Socket.open(game_id, p0)
    nested = "[" * depth + "]" * depth
    for frame, code in (
        ('{"type": "move", "ply": 0, "move": ' + nested + "}", "malformed-move"),
        ('{"type": "move", "ply": 0, "move": {"cell": ' + nested + "}}", "malformed-move"),
        ('{"type": "note", "text": ' + nested + "}", "bad-note"),
    ):
        await sock.send_text(frame)
        assert (await sock.recv_type("error"))["code"] == code
    await sock.send_text(json.dumps({"type": "sync", "extra": json.loads(nested)}))  # a field sync does not take
    assert await sock.recv_type("error") == {
        "type": "error", "code": "unknown-field", "field": "extra",
        "message": 'A "sync" frame has no field "extra": it takes "type" alone.'}
    await sock.send({"type": "sync"})
    assert (await sock.recv_type("state"))["ply"] == 0
    await sock.send({"type": "move", "ply": 0, "move": {"cell": 5}})
    assert await sock.recv_type("ack") == {"type": "ack", "ply": 1}
    await sock.close()


async def test_a_frame_with_a_field_its_type_does_not_take_is_refused_and_plays_nothing(make_player):
    """As the REST API refuses a body's unknown field: a misspelt "ply" was read as
    absent, and a legal move beside any junk at all was played."""
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    sock, _ = await Socket.open(game_id, p0)
    for frame, field in (({"type": "move", "ply": 0, "move": {"cell": 5}, "at": 1}, "at"),
                         ({"type": "move", "Ply": 0, "move": {"cell": 5}}, "Ply")):
        await sock.send(frame)
        assert await sock.recv_type("error") == {
            "type": "error", "code": "unknown-field", "field": field,
            "message": f'A "move" frame has no field "{field}": it takes "move" and "ply" beside "type".'}
    await sock.send({"type": "resign", "ply": 0})
    assert (await sock.recv_type("error"))["message"] == 'A "resign" frame has no field "ply": it takes "type" alone.'
    await sock.send({"type": "sync"})
    state = await sock.recv_type("state")
    assert state["ply"] == 0 and state["game"]["status"] == "active"  # nothing was played, nobody resigned
    await sock.close()
    notices = WebsocketCommunicator(application, "/ws/notifications/", headers=[HOST, ORIGIN])
    assert (await notices.connect())[0]
    await notices.send_json_to({"type": "t" * 15_000})  # an error quotes at most 500 characters of it
    error = await notices.receive_json_from(timeout=5)
    assert error["code"] == "unknown-type" and len(error["message"]) == 500, len(error["message"])
    await notices.send_json_to({"type": "ping", "n": 1})
    assert (await notices.receive_json_from(timeout=5))["code"] == "unknown-field"
    await notices.send_json_to({"type": "ping"})
    assert await notices.receive_json_from(timeout=5) == {"type": "pong"}
    await notices.disconnect()


def _from(game_id: int, address: str, headers: list[tuple[bytes, bytes]] | None = None) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=[*(headers or []), HOST, ORIGIN])
    communicator.scope["client"] = (address, 40000)
    return communicator


async def test_one_address_holds_at_most_its_cap_of_sockets_and_others_are_not_affected(make_player):
    """WEBSOCKET_MAX_PER_ADDRESS: past it a socket is refused at the handshake (4429 before
    accept, a 403 to a browser); a closed socket frees its place; another address is served."""
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    with override_settings(WEBSOCKET_MAX_PER_ADDRESS=2):
        first, second = _from(game_id, "203.0.113.7"), _from(game_id, "203.0.113.7")
        assert (await first.connect())[0] and (await second.connect())[0]
        third = _from(game_id, "203.0.113.7")
        connected, code = await third.connect()
        assert not connected and code == CLOSE_RATE_LIMITED
        other = _from(game_id, "198.51.100.4")
        assert (await other.connect())[0]
        await first.disconnect()
        await asyncio.sleep(0.1)
        again = _from(game_id, "203.0.113.7")
        assert (await again.connect())[0]
        for sock in (second, other, again):
            await sock.disconnect()


async def test_behind_a_proxy_the_cap_counts_the_forwarded_address(make_player):
    """With NUM_PROXIES=1 the address is X-Forwarded-For's last, as the throttles take it:
    two clients behind the same proxy are two addresses."""
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    with override_settings(WEBSOCKET_MAX_PER_ADDRESS=1, NUM_PROXIES=1):
        a = _from(game_id, "10.0.0.1", [(b"x-forwarded-for", b"203.0.113.7")])
        b = _from(game_id, "10.0.0.1", [(b"x-forwarded-for", b"198.51.100.4")])
        assert (await a.connect())[0] and (await b.connect())[0]
        c = _from(game_id, "10.0.0.1", [(b"x-forwarded-for", b"1.2.3.4, 203.0.113.7")])
        assert (await c.connect())[0] is False
        await a.disconnect()
        await b.disconnect()


async def test_the_sockets_of_one_address_share_a_frame_budget_and_others_are_not_affected(make_player):
    """WEBSOCKET_ADDRESS_FRAMES_PER_SECOND: many sockets of one address, each within its
    own rate, cannot together ask more than the address's budget (a probe's 100 sockets
    asked 1,000 state reads a second and slowed every game); another address is served."""
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    with override_settings(WEBSOCKET_ADDRESS_FRAMES_PER_SECOND=0.001, WEBSOCKET_ADDRESS_FRAME_BURST=4):
        sockets = [Socket(_from(game_id, "203.0.113.7")) for _ in range(3)]
        for sock in sockets:
            assert (await sock.ws.connect())[0]
            await sock.recv_type("state")
        answered = []
        for sock in sockets * 2:  # six frames, each socket well within its own burst of 30
            await sock.send({"type": "sync"})
            frame = await sock.recv_type("state", skip=("observers", "error")) if len(answered) < 4 else None
            answered.append(frame is not None)
        assert answered == [True, True, True, True, False, False]
        for sock in sockets[1:]:  # the fifth and sixth frames were dropped, with the error said
            error = await sock.recv_type("error")
            assert error["code"] == "rate-limited" and "an address" in error["message"]
        other = Socket(_from(game_id, "198.51.100.4"))
        assert (await other.ws.connect())[0]
        await other.recv_type("state")
        await other.send({"type": "sync"})
        assert (await other.recv_type("state"))["ply"] == 0
        for sock in [*sockets, other]:
            await sock.close()
