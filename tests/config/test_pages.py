"""config/pages.py: a page takes one of the few page threads only once its request's
body has all arrived, so clients that send their bodies slowly cannot hold every thread
(docs/security.md, "Bad input")."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import urllib.request

import pytest
from django.conf import settings

from config.pages import REPLAY_CHUNK, BodyFirst
from tests.processes import free_port, platform_commands, running, scratch_database, wait_for_port


class Inner:
    """An ASGI app that reads the whole body it is given, as a page does."""

    def __init__(self) -> None:
        self.called = False
        self.body = b""

    async def __call__(self, scope, receive, send) -> None:
        self.called = True
        while True:
            message = await receive()
            self.body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        self.after = await receive()


async def test_the_body_is_read_whole_before_the_page_is_called():
    inner, arriving = Inner(), asyncio.Queue()
    big = bytes(range(256)) * (REPLAY_CHUNK // 128)  # two replay pieces
    served = asyncio.create_task(BodyFirst(inner)({"type": "http"}, arriving.get, None))
    await arriving.put({"type": "http.request", "body": b"first,", "more_body": True})
    await asyncio.sleep(0.05)
    assert not inner.called  # half a body: no page yet
    await arriving.put({"type": "http.request", "body": big, "more_body": False})
    await arriving.put({"type": "http.disconnect"})
    await asyncio.wait_for(served, 5)
    assert inner.body == b"first," + big
    assert inner.after == {"type": "http.disconnect"}  # after the body, what the client sends next


async def test_a_client_gone_before_its_body_is_whole_reaches_no_page():
    inner, arriving = Inner(), asyncio.Queue()
    served = asyncio.create_task(BodyFirst(inner)({"type": "http"}, arriving.get, None))
    await arriving.put({"type": "http.request", "body": b"half", "more_body": True})
    await arriving.put({"type": "http.disconnect"})
    await asyncio.wait_for(served, 5)
    assert not inner.called


async def _answer_to(scope: dict, pieces: list[bytes]) -> tuple[Inner, list[dict]]:
    """What BodyFirst answers a request whose body comes in ``pieces``."""
    inner, arriving, sent = Inner(), asyncio.Queue[dict](), []

    async def send(message: dict) -> None:
        sent.append(message)

    for number, piece in enumerate(pieces, start=1):
        await arriving.put({"type": "http.request", "body": piece, "more_body": number < len(pieces)})
    await arriving.put({"type": "http.disconnect"})
    await asyncio.wait_for(BodyFirst(inner)({"type": "http", **scope}, arriving.get, send), 5)
    return inner, sent


async def test_a_body_past_the_limit_is_refused_with_413_and_reaches_no_page(settings):
    settings.MOST_REQUEST_BYTES = 1000
    declared = {"path": "/api/v1/games/", "headers": [(b"content-length", b"1001")]}
    inner, sent = await _answer_to(declared, [b"x" * 1001])  # refused on its declared length
    assert not inner.called
    assert sent[0]["status"] == 413 and (b"content-type", b"application/json") in sent[0]["headers"]
    assert json.loads(sent[1]["body"]) == {"code": "too-large", "message": "The request is too large: the most the "
                                           "platform takes is 1,000 bytes."}
    inner, sent = await _answer_to({"path": "/accounts/login/"}, [b"x" * 600, b"x" * 600])  # chunked, no length
    assert not inner.called
    assert sent[0]["status"] == 413 and b"too large" in sent[1]["body"]
    inner, sent = await _answer_to({"path": "/accounts/login/"}, [b"x" * 500, b"x" * 500])  # at the limit: taken
    assert inner.called and inner.body == b"x" * 1000 and not sent


async def test_a_page_refused_as_too_large_is_a_page_of_the_site(settings):
    """Not a bare line with no way on (an outside walkthrough: a 5 MB TRF uploaded): the
    site's page, with its menu, saying the limit, and the headers every answer carries
    (docs/security.md, "Headers and assets"), still refused before the body is read."""
    settings.MOST_REQUEST_BYTES = 1000
    declared = {"path": "/clubs/a/b/c/rounds/2/pairings/", "headers": [(b"content-length", b"5000000")]}
    inner, sent = await _answer_to(declared, [b"x" * 10])
    assert not inner.called
    headers = dict(sent[0]["headers"])
    assert sent[0]["status"] == 413 and headers[b"content-type"] == b"text/html; charset=utf-8"
    assert headers[b"connection"] == b"close" and int(headers[b"content-length"]) == len(sent[1]["body"])
    html = sent[1]["body"].decode()
    assert "The request is too large: the most the platform takes is 1,000 bytes." in html
    assert '<nav class="nav" aria-label="Main">' in html and 'href="/clubs/"' in html  # the site's menu
    assert "/static/" in html and 'rel="stylesheet"' in html
    assert b"default-src 'self'" in headers[b"content-security-policy"]
    assert b"camera=()" in headers[b"permissions-policy"]
    assert headers[b"x-content-type-options"] == b"nosniff"
    inner, sent = await _answer_to({"path": "/api/v1/games/", "headers": [(b"content-length", b"5000")]}, [b""])
    assert b"default-src 'self'" in dict(sent[0]["headers"])[b"content-security-policy"]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_slow_bodies_do_not_hold_the_page_threads(tmp_path):
    """Twice as many requests as there are page threads, each sending half a body and
    then nothing: the home page still answers at once."""
    port = free_port()
    with scratch_database(tmp_path) as env, running(*platform_commands(port), env=env, log_dir=tmp_path) as procs:
        wait_for_port(port, process=procs[0])
        held = []
        try:
            for _ in range(2 * settings.PAGE_THREADS):
                sock = socket.create_connection(("127.0.0.1", port))
                sock.sendall(
                    f"POST /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n"
                    "username=a".encode()
                )
                held.append(sock)
            time.sleep(0.5)
            began = time.monotonic()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
                assert answer.status == 200
            assert time.monotonic() - began < 5
        finally:
            for sock in held:
                sock.close()


async def test_a_body_sent_in_chunks_reaches_the_page_with_its_length():
    """A body with no Content-Length (``Transfer-Encoding: chunked``) is handed on with
    the length read: WSGI reads CONTENT_LENGTH bytes, so the page read none, and a chunked
    PATCH of the API answered 200 and changed nothing (an outside probe)."""
    chunked = {"path": "/api/v1/accounts/me/", "headers": [(b"transfer-encoding", b"chunked")]}
    seen: list[dict] = []

    class Recorder(Inner):
        async def __call__(self, scope, receive, send) -> None:
            seen.append(scope)
            await super().__call__(scope, receive, send)

    inner, arriving = Recorder(), asyncio.Queue[dict]()
    for piece, more in ((b'{"display_name":', True), (b' "Chunky"}', False)):
        await arriving.put({"type": "http.request", "body": piece, "more_body": more})
    await arriving.put({"type": "http.disconnect"})
    await asyncio.wait_for(BodyFirst(inner)({"type": "http", **chunked}, arriving.get, None), 5)
    assert inner.body == b'{"display_name": "Chunky"}'
    assert seen[0]["headers"] == [(b"content-length", b"26")]
    declared = {"path": "/", "headers": [(b"content-length", b"2")]}  # a declared length is left as it is
    inner, _ = await _answer_to(declared, [b"ab"])
    assert inner.body == b"ab"


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_chunked_write_of_the_api_is_read(tmp_path):
    """The same through the platform: a PATCH whose body comes chunked changes what it says."""
    import http.client

    port = free_port()
    with scratch_database(tmp_path) as env, running(*platform_commands(port), env=env, log_dir=tmp_path) as procs:
        wait_for_port(port, process=procs[0])
        login = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        login.request("POST", "/api/v1/accounts/login/", json.dumps({"username": "sam", "password": "tictactoe-demo"}),
                      {"Content-Type": "application/json"})
        token = json.loads(login.getresponse().read())["token"]
        patch = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        patch.request("PATCH", "/api/v1/accounts/me/", iter([b'{"display_name":', b' "Chunky"}']),
                      {"Content-Type": "application/json", "Authorization": f"Token {token}"}, encode_chunked=True)
        answer = patch.getresponse()
        assert (answer.status, json.loads(answer.read())["display_name"]) == (200, "Chunky")
