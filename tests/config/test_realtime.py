"""The websocket stack: routing, origin check, token auth, bad frames, size limit."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from config.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("channel_layers_fresh")]

ORIGIN = [(b"host", b"127.0.0.1:8000"), (b"origin", b"http://127.0.0.1:8000")]


async def connect(headers=None):
    communicator = WebsocketCommunicator(application, "/ws/notifications/", headers=(headers or []) + ORIGIN)
    connected, _ = await communicator.connect()
    return communicator, connected


async def test_ping_pong():
    ws, connected = await connect()
    assert connected
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    await ws.disconnect()


async def test_foreign_origin_is_refused():
    ws = WebsocketCommunicator(application, "/ws/notifications/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await ws.connect()
    assert not connected


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "malformed-json"),
        ("[1, 2]", "malformed-frame"),
        ('{"no": "type"}', "malformed-frame"),
        ('{"type": 3}', "malformed-frame"),
        ('{"type": "dance"}', "unknown-type"),
    ],
)
async def test_bad_frames_get_an_error_and_the_socket_stays_open(frame, code):
    ws, _ = await connect()
    await ws.send_to(text_data=frame)
    reply = await ws.receive_json_from()
    assert reply["type"] == "error" and reply["code"] == code and reply["message"]
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    await ws.disconnect()


async def test_binary_frames_are_refused():
    ws, _ = await connect()
    await ws.send_to(bytes_data=b"\x00\x01")
    assert (await ws.receive_json_from())["code"] == "binary-frame"
    await ws.disconnect()


@override_settings(WEBSOCKET_MAX_MESSAGE_BYTES=1024)
async def test_oversized_frames_are_refused_before_parsing():
    ws, _ = await connect()
    await ws.send_to(text_data=json.dumps({"type": "ping", "pad": "x" * 2000}))
    assert (await ws.receive_json_from())["code"] == "frame-too-large"
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    await ws.disconnect()


async def test_token_authenticated_user_receives_their_own_notices(make_player):
    from asgiref.sync import sync_to_async
    from channels.layers import get_channel_layer
    from rest_framework.authtoken.models import Token

    from accounts.realtime import user_group

    user = await sync_to_async(make_player)()
    token = await database_sync_to_async(lambda: Token.objects.create(user=user).key)()
    ws, connected = await connect([(b"authorization", f"Token {token}".encode())])
    assert connected
    assert await ws.receive_json_from() == {"type": "unread", "unread": 0}
    await get_channel_layer().group_send(user_group(user.pk), {"type": "user.notice", "message": "Your round starts"})
    assert await ws.receive_json_from() == {"type": "notice", "message": "Your round starts"}
    # A pairing notice carries where to go; empty fields are left out.
    await get_channel_layer().group_send(user_group(user.pk), {
        "type": "user.notice", "message": "Round 2, board 1: your game is ready.", "event": "pairing",
        "section": 7, "round": 2, "board": 1, "game": 41, "url": "/play/41/",
    })
    assert await ws.receive_json_from() == {
        "type": "notice", "message": "Round 2, board 1: your game is ready.", "event": "pairing",
        "url": "/play/41/", "game": 41, "section": 7, "round": 2, "board": 1,
    }
    await get_channel_layer().group_send(user_group(user.pk), {"type": "user.notice", "message": "A bye", "url": ""})
    assert await ws.receive_json_from() == {"type": "notice", "message": "A bye"}
    await ws.disconnect()


async def test_a_socket_opens_with_the_unread_count_so_notices_stored_meanwhile_are_not_lost(make_player):
    # A notice stored while the page had no socket (its server died, it was between
    # retries) was pushed to nobody: the first frame after (re)connecting carries the
    # count the database holds, so the badge catches up.
    from asgiref.sync import sync_to_async
    from rest_framework.authtoken.models import Token

    from accounts import notices
    from accounts.models import Notice

    user = await sync_to_async(make_player)()
    token = await database_sync_to_async(lambda: Token.objects.create(user=user).key)()
    for round_number in (1, 2):
        await database_sync_to_async(notices.notify)(
            recipient=user, kind=Notice.Kind.PAIRING, cause=f"pairing:{round_number}",
            message=f"Round {round_number}: your game is ready.")
    ws, connected = await connect([(b"authorization", f"Token {token}".encode())])
    assert connected
    assert await ws.receive_json_from() == {"type": "unread", "unread": 2}
    await ws.disconnect()


async def test_an_anonymous_socket_is_sent_no_count():
    ws, connected = await connect()
    assert connected
    assert await ws.receive_nothing()
    await ws.disconnect()


async def test_a_bad_token_leaves_the_socket_anonymous():
    ws, connected = await connect([(b"authorization", b"Token not-a-real-token")])
    assert connected
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    await ws.disconnect()


@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/games/abc/", "/ws/game/1/", "/"])
async def test_an_unknown_socket_path_is_refused_not_failed(path):
    communicator = WebsocketCommunicator(application, path, headers=ORIGIN)
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.wait()
