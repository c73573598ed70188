"""ASGI entry point: HTTP through Django, websockets through Channels."""

from __future__ import annotations

import functools
import gc
import os

from django.core.asgi import get_asgi_application

# The servers (uvicorn, Celery) default to production, which refuses to start without
# its own key and hosts; manage.py and `./dev run` choose the dev settings.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

# Django must be set up before anything imports models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from accounts.realtime import WebsocketAuthMiddleware  # noqa: E402
from config.routing import browser_origin_validator, websocket_urlpatterns  # noqa: E402
from games import workers  # noqa: E402

# With database worker processes, the socket's token or session is looked up there too.
auth_lookups = {"run": functools.partial(workers.call, lane=workers.SOCKETS)} if workers.enabled() else {}

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Browsers authenticate with their session; API clients and bots with the
        # same token as REST, in an "Authorization: Token ..." header. Foreign
        # origins are refused; clients that send no Origin (bots) pass.
        "websocket": browser_origin_validator(
            WebsocketAuthMiddleware(URLRouter(websocket_urlpatterns), **auth_lookups)
        ),
    }
)

# Database worker processes, when configured, start with the server, not under the
# first players' moves (games/workers.py).
if workers.enabled():
    workers.start()

# Everything made at start-up (Django, the apps, the URL confs, imported now rather
# than at the first request) lives as long as the process: keep it out of the cycle
# collector, whose full passes over it paused the event loop for ~100 ms under load
# (docs/benchmarks-live.md).
get_resolver().url_patterns  # noqa: B018 - imported for its side effect
gc.freeze()
