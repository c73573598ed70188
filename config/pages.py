"""HTTP into Django: every view is sync, so each page runs whole on one of a few page
threads (``PAGE_THREADS``), through Django's WSGI handler and a2wsgi, one hop from the
event loop that relays the sockets. Django's ASGI handler hops between the loop and a
thread within the page instead (where a sync-only middleware meets an async-capable
one, and around each hook of a ``MiddlewareMixin``), and each hop takes the interpreter
lock from that loop: a game page, 4 browsers at once, cost 9.9-10.2 ms of server CPU
that way and 7.4-7.6 ms this way (bench/page_handlers.py; docs/benchmarks-live.md,
"Ninth round")."""

from __future__ import annotations

import functools
import json
import logging
import tempfile
from typing import IO, Any

from a2wsgi import WSGIMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from django_permissions_policy import PermissionsPolicyMiddleware

logger = logging.getLogger(__name__)

#: The pieces a request's body is handed to its page in.
REPLAY_CHUNK = 64 * 1024


def page_application(wsgi_app: Any) -> Any:
    # (The stubs type the handler's answer as an HttpResponse: an iterable of bytes all the same.)
    return BodyFirst(WSGIMiddleware(wsgi_app, workers=settings.PAGE_THREADS))  # type: ignore[arg-type]


class BodyFirst:
    """Read a request's whole body on the event loop before its page takes a thread, as
    Django's ASGI handler does. a2wsgi hands the body to the page as it arrives, so a
    page thread would wait on a client that sends its body slowly: six such requests
    left the home page unanswered for 15 s (tests/config/test_pages.py). Spooled to
    disk past ``FILE_UPLOAD_MAX_MEMORY_SIZE``, as Django spools it. A body sent in chunks
    (no ``Content-Length``) is handed on with the length read: WSGI reads that many
    bytes, and read none of it, so a chunked write was answered as if it had no body."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        most = settings.MOST_REQUEST_BYTES
        if _declared_length(scope) > most:  # refused before a byte of it is read
            await _too_large(scope, send, most)
            return
        with tempfile.SpooledTemporaryFile(max_size=settings.FILE_UPLOAD_MAX_MEMORY_SIZE) as body:
            while True:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return  # gone before its request was whole: there is no one to answer
                body.write(message.get("body", b""))
                if body.tell() > most:  # a body sent in chunks, with no length declared
                    await _too_large(scope, send, most)
                    return
                if not message.get("more_body", False):
                    break
            if not _has_length(scope):  # sent in chunks: WSGI reads CONTENT_LENGTH bytes, so none
                scope = {**scope, "headers": [
                    *((name, value) for name, value in scope.get("headers", []) if name != b"transfer-encoding"),
                    (b"content-length", str(body.tell()).encode())]}
            body.seek(0)
            await self.app(scope, _replay(body, receive), send)


def _has_length(scope: dict[str, Any]) -> bool:
    return any(name == b"content-length" for name, _ in scope.get("headers", []))


def _declared_length(scope: dict[str, Any]) -> int:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return 0  # not a number: the server's own parser refuses such a request
    return 0


async def _too_large(scope: dict[str, Any], send: Any, most: int) -> None:
    """413, in the API's error shape under /api/ (config/api.py), else as a page of the
    site (templates/413.html). The server closes the connection after it: the rest of
    the body is never read. Django's middleware never sees this answer, so the headers
    it puts on every other one are put here (_site_headers)."""
    size = f"{most // 2**20} MiB" if most >= 2**20 else f"{most:,} bytes"
    message = f"The request is too large: the most the platform takes is {size}."
    if scope.get("path", "").startswith("/api/"):
        body, kind = json.dumps({"code": "too-large", "message": message}).encode(), b"application/json"
    else:
        body, kind = _too_large_page(message), b"text/html; charset=utf-8"
    await send({"type": "http.response.start", "status": 413, "headers": [
        (b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"connection", b"close"),
        *_site_headers()]})
    await send({"type": "http.response.body", "body": body})


@functools.lru_cache(maxsize=8)
def _too_large_page(message: str) -> bytes:
    """templates/413.html, rendered without a request as the 400 page is (no user, no
    database: the signed-out menu), once per process and limit: the loop does not render
    a page for every refusal. If it cannot be rendered, the short page it replaced."""
    try:
        return render_to_string("413.html", {"message": message}).encode()
    except Exception:  # a broken template must not turn a refusal into a 500
        logger.exception("The 413 page could not be rendered.")
        return f"<!doctype html><title>Too large</title><p>{message}</p>".encode()


@functools.lru_cache(maxsize=1)
def _site_headers() -> tuple[tuple[bytes, bytes], ...]:
    """The headers Django's middleware puts on every answer (config/settings/base.py,
    docs/security.md "Headers and assets"): the Content-Security-Policy and the
    Permissions-Policy from their libraries, and SecurityMiddleware's and
    XFrameOptionsMiddleware's own from the same settings (HSTS is left to the answers
    that know the request came over HTTPS)."""
    headers = [
        ("Content-Security-Policy", build_policy()),
        ("Permissions-Policy", PermissionsPolicyMiddleware(HttpResponse).permissions_policy),
        ("X-Content-Type-Options", "nosniff" if settings.SECURE_CONTENT_TYPE_NOSNIFF else ""),
        ("Referrer-Policy", _listed(settings.SECURE_REFERRER_POLICY)),
        ("Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY or ""),
        ("X-Frame-Options", settings.X_FRAME_OPTIONS),
    ]
    return tuple((name.lower().encode(), value.encode()) for name, value in headers if value)


def _listed(value: str | list[str] | tuple[str, ...] | None) -> str:
    """A setting Django takes as a comma-separated text or a list, as its header."""
    items = value.split(",") if isinstance(value, str) else (value or [])
    return ",".join(item.strip() for item in items)


def _replay(body: IO[bytes], receive: Any) -> Any:
    """A ``receive`` that gives the read body back in pieces, then what the client sends
    next (its disconnect)."""
    done = False

    async def replayed() -> dict[str, Any]:
        nonlocal done
        if done:
            return await receive()  # type: ignore[no-any-return]
        chunk = body.read(REPLAY_CHUNK)
        done = len(chunk) < REPLAY_CHUNK
        return {"type": "http.request", "body": chunk, "more_body": not done}

    return replayed
