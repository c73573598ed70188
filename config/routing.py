"""Websocket routes of every app, and the origin check the websocket stack should use."""

from __future__ import annotations

from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port
from django.urls import path, re_path
from django.utils.http import is_same_domain

from config.notifications import NotificationsConsumer
from games.consumers import GameConsumer
from league.consumers import SectionConsumer

websocket_urlpatterns = [
    path("ws/notifications/", NotificationsConsumer.as_asgi()),
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/sections/<int:section_id>/", SectionConsumer.as_asgi()),
    # Any other path: the handshake is refused (HTTP 403), not failed with a 500.
    re_path(r"", WebsocketDenier.as_asgi()),
]


class BrowserOriginValidator:
    """The handshake's origin check, as Django's CSRF check treats a form's post
    (CsrfViewMiddleware): a handshake that names an Origin must come from this very site,
    the scheme, host and port the socket was opened on (its host one of ALLOWED_HOSTS),
    or from one of CSRF_TRUSTED_ORIGINS. Channels' own check compares host names only, so
    a page on another port of the same host (same-site: the browser sends it the session
    cookie) could play a signed-in player's games (found by probing from outside,
    2026-11-29). A handshake with no Origin passes: browsers always send one, and bots
    and API clients, which send none, authenticate by token."""

    def __init__(self, application: Any, allowed_hosts: list[str]) -> None:
        self.application = application
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if self.allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)  # HTTP 403

    def allowed(self, scope: dict[str, Any]) -> bool:
        headers = dict(scope.get("headers") or [])
        if b"origin" not in headers:
            return True
        origin = headers[b"origin"].decode("latin-1")
        host = headers.get(b"host", b"").decode("latin-1")
        domain, _ = split_domain_port(host)
        own_site = bool(domain) and any(pattern == "*" or is_same_domain(domain, pattern)
                                        for pattern in self.allowed_hosts)
        if own_site and origin == f"{'https' if self._secure(scope, headers) else 'http'}://{host}":
            return True
        return _trusted(origin)

    @staticmethod
    def _secure(scope: dict[str, Any], headers: dict[bytes, bytes]) -> bool:
        """As Django's ``request.is_secure()``: wss, or the proxy's header says https."""
        if scope.get("scheme") == "wss":
            return True
        if settings.SECURE_PROXY_SSL_HEADER:
            name, value = settings.SECURE_PROXY_SSL_HEADER
            header = name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")
            return headers.get(header, b"").decode("latin-1").split(",")[0].strip() == value
        return False


def _trusted(origin: str) -> bool:
    """``origin`` is one of CSRF_TRUSTED_ORIGINS, or under one of its ``*.`` patterns."""
    scheme, _, netloc = origin.partition("://")
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        trusted_scheme, _, trusted_netloc = trusted.partition("://")
        if origin == trusted or (trusted_netloc.startswith("*.") and scheme == trusted_scheme
                                 and is_same_domain(netloc, trusted_netloc[1:])):
            return True
    return False


def browser_origin_validator(application: Any) -> BrowserOriginValidator:
    """Channels' AllowedHostsOriginValidator's place in the stack (the same allowed hosts)."""
    allowed_hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed_hosts:
        allowed_hosts = ["localhost", "127.0.0.1", "[::1]"]
    return BrowserOriginValidator(application, allowed_hosts)
