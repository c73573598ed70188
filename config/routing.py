"""Websocket routes of every app, and the origin check the websocket stack should use."""

from __future__ import annotations

from typing import Any
from urllib.parse import ParseResult

from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings
from django.urls import path, re_path

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


class BrowserOriginValidator(OriginValidator):
    """Channels' origin check, except that a handshake with no Origin header passes.

    Browsers always send Origin on a websocket handshake, so a foreign page is still
    refused (the cross-site hijacking this check exists for). Bots and API clients
    send none: Channels' AllowedHostsOriginValidator refuses them outright, which
    would lock out the token-authenticated clients the protocol is for.
    """

    def valid_origin(self, parsed_origin: ParseResult | None) -> bool:
        if parsed_origin is None:
            return True
        return super().valid_origin(parsed_origin)


def browser_origin_validator(application: Any) -> BrowserOriginValidator:
    """Drop-in for AllowedHostsOriginValidator (the same allowed hosts)."""
    allowed_hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not allowed_hosts:
        allowed_hosts = ["localhost", "127.0.0.1", "[::1]"]
    return BrowserOriginValidator(application, allowed_hosts)
