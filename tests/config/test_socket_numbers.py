"""Numbers a websocket frame cannot hold, sent to a game socket and a notifications
socket through the real ASGI stack: each is answered with a clear error frame, never a
crash or a close (1011), and the socket stays usable. An integer of 5,000 digits was
called "not valid JSON" (it is), and ``1e400``, ``NaN`` and ``Infinity`` were read as
floats no handler takes. The frames read numbers as the API's bodies do
(accounts.json_numbers). docs/security.md, "Bad input"."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.sockets import HOST, ORIGIN, Socket, players, started_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("channel_layers_fresh", "observer_counts_sent"),
]

LONG = "7" * 5000  # past Python's 4,300 digits
TOO_LONG = "A number in the frame is too long: at most 4,300 digits."
TOO_LARGE = "A number in the frame is too large: past about 1.8e308 it is not a finite number."

#: (where the number goes in a frame, the number as sent, the error's message)
NUMBERS = [
    (LONG, TOO_LONG),
    ("-" + LONG, TOO_LONG),
    ("1e400", TOO_LARGE),
    ("-1e400", TOO_LARGE),
    ("1.5e99999", TOO_LARGE),
    ("NaN", "NaN in the frame is not a JSON number: JSON has no NaN or Infinity."),
    ("Infinity", "Infinity in the frame is not a JSON number: JSON has no NaN or Infinity."),
    ("-Infinity", "-Infinity in the frame is not a JSON number: JSON has no NaN or Infinity."),
]
GAME_FRAMES = [
    '{"type": "move", "ply": %s, "move": {"cell": 5}}',
    '{"type": "move", "ply": 0, "move": {"cell": %s}}',
    '{"type": "note", "text": %s}',
    '{"type": "sync", "extra": [1, {"deep": %s}]}',
    "[%s]",
]


@pytest.mark.parametrize(("number", "message"), NUMBERS)
async def test_a_game_socket_answers_each_number_it_cannot_hold_and_plays_on(make_player, number, message):
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    sock, _ = await Socket.open(game_id, p0)
    for frame in GAME_FRAMES:
        await sock.send_text(frame % number)
        error = await sock.recv_type("error")
        assert error == {"type": "error", "code": "bad-number", "message": message}, frame
        await sock.send({"type": "sync"})  # still answering
        assert (await sock.recv_type("state"))["ply"] == 0
    await sock.send({"type": "move", "ply": 0, "move": {"cell": 5}})
    assert await sock.recv_type("ack") == {"type": "ack", "ply": 1}
    await sock.close()


@pytest.mark.parametrize(("number", "message"), NUMBERS)
async def test_a_notifications_socket_answers_each_number_and_still_pongs(number, message):
    ws = WebsocketCommunicator(application, "/ws/notifications/", headers=[HOST, ORIGIN])
    assert (await ws.connect())[0]
    for frame in ('{"type": "ping", "n": %s}', '{"type": %s}', "%s"):
        await ws.send_to(text_data=frame % number)
        assert await ws.receive_json_from(timeout=5) == {"type": "error", "code": "bad-number", "message": message}
        await ws.send_json_to({"type": "ping"})
        assert await ws.receive_json_from(timeout=5) == {"type": "pong"}
    await ws.disconnect()


async def test_numbers_a_frame_can_hold_still_reach_the_game(make_player):
    """The longest integer Python reads, a large finite float and a plain one: read, and
    answered by the game as any wrong ply or square is."""
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    sock, _ = await Socket.open(game_id, p0)
    await sock.send_text('{"type": "move", "ply": %s, "move": {"cell": 5}}' % ("9" * 4300))
    assert (await sock.recv_type("error"))["code"] == "stale-ply"
    assert (await sock.recv_type("state"))["ply"] == 0  # a stale ply is sent the state
    await sock.send_text('{"type": "move", "ply": 0, "move": {"cell": 1e300}}')
    assert (await sock.recv_type("error"))["code"] == "malformed-move"
    await sock.send_text('{"type": "move", "ply": 0, "move": {"cell": 5, "at": 1.5e308}}')
    assert (await sock.recv_type("error"))["code"] == "malformed-move"
    await sock.send_text('{"type": "move", "ply": 0.0, "move": {"cell": 5}}')
    assert (await sock.recv_type("error"))["code"] == "malformed-ply"
    await sock.send_text('{"type": "move", "ply": 0, "move": {"cell": 5}}')
    assert await sock.recv_type("ack") == {"type": "ack", "ply": 1}
    await sock.close()


async def test_text_that_is_not_json_is_still_malformed_json():
    ws = WebsocketCommunicator(application, "/ws/notifications/", headers=[HOST, ORIGIN])
    assert (await ws.connect())[0]
    for text in ("{", "nan", '{"type": "ping", "n": 1e}'):
        await ws.send_to(text_data=text)
        assert (await ws.receive_json_from(timeout=5))["code"] == "malformed-json", text
    await ws.disconnect()


async def test_a_frame_that_names_a_key_twice_is_refused_and_plays_nothing(make_player):
    """``{"type": "ping", "type": "move", ...}`` was a move: Python keeps the last of two
    keys in silence, where a proxy or log reader may keep the first. Refused, nested
    objects' keys too, and the game is not touched."""
    p0, p1 = await players(make_player)
    game_id = await started_game(p0, p1)
    sock, _ = await Socket.open(game_id, p0)
    for frame in ('{"type": "ping", "type": "move", "ply": 0, "move": {"cell": 5}}',
                  '{"type": "move", "ply": 0, "move": {"cell": 1, "cell": 5}}'):
        await sock.send_text(frame)
        error = await sock.recv_type("error")
        assert error["code"] == "duplicate-key", frame
        assert "names the key" in error["message"] and "twice" in error["message"]
    await sock.send({"type": "sync"})
    assert (await sock.recv_type("state"))["ply"] == 0  # nothing was played
    await sock.close()
