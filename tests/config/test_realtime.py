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


async def assert_refused_for_its_token(ws, words):
    """A bad-token socket: accepted, told why, closed with 4401 (docs/protocol.md)."""
    frame = await ws.receive_json_from()
    assert frame["type"] == "error" and frame["code"] == "bad-token" and words in frame["message"]
    assert await ws.receive_output() == {"type": "websocket.close", "code": 4401, "reason": "bad-token"}


@pytest.mark.parametrize("path", ["/ws/notifications/", "/ws/games/1/", "/ws/sections/1/"])
async def test_a_token_that_matches_no_user_is_refused_with_4401(path):
    # It was an anonymous socket: a bot with a mistyped token watched, and its moves
    # were refused later with not-a-player, where REST answers the same token 401.
    ws = WebsocketCommunicator(application, path, headers=[(b"authorization", b"Token not-a-real-token"), *ORIGIN])
    connected, _ = await ws.connect()
    assert connected
    await assert_refused_for_its_token(ws, "matches no active account")


async def test_a_deleted_or_inactive_users_token_is_refused_as_a_bad_one(make_player):
    from asgiref.sync import sync_to_async
    from rest_framework.authtoken.models import Token

    revoked, inactive = await sync_to_async(make_player)(), await sync_to_async(make_player)()
    revoked_key = await database_sync_to_async(lambda: Token.objects.create(user=revoked).key)()
    inactive_key = await database_sync_to_async(lambda: Token.objects.create(user=inactive).key)()
    await database_sync_to_async(lambda: Token.objects.filter(user=revoked).delete())()  # a log-out
    inactive.is_active = False
    await database_sync_to_async(inactive.save)()
    for key in (revoked_key, inactive_key):
        ws, connected = await connect([(b"authorization", f"Token {key}".encode())])
        assert connected
        await assert_refused_for_its_token(ws, "matches no active account")


@pytest.mark.parametrize("header", [b"Token", b"Token ", b"Token two words", b"Bearer abc123", b"abc123", b""])
async def test_an_authorization_header_that_is_not_token_and_key_is_refused_with_4401(header):
    ws, connected = await connect([(b"authorization", header)])
    assert connected
    await assert_refused_for_its_token(ws, '"Token <key>"')


async def test_a_proxys_basic_credentials_are_left_to_the_proxy(make_player):
    # A browser behind a site's HTTP password sends them with its socket's handshake:
    # not a token, so not refused; the session cookie still signs it in.
    from django.test import Client

    user = await database_sync_to_async(make_player)()
    client = Client()
    await database_sync_to_async(client.force_login)(user)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    ws, connected = await connect([(b"authorization", b"Basic dXNlcjpwYXNz"), (b"cookie", cookie)])
    assert connected
    assert await ws.receive_json_from() == {"type": "unread", "unread": 0}  # signed in
    await ws.disconnect()
    ws, connected = await connect([(b"authorization", b"Basic dXNlcjpwYXNz")])
    assert connected
    assert await ws.receive_nothing()  # anonymous
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    await ws.disconnect()


@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/games/abc/", "/ws/game/1/", "/"])
async def test_an_unknown_socket_path_is_refused_not_failed(path):
    communicator = WebsocketCommunicator(application, path, headers=ORIGIN)
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.wait()
