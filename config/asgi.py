"""ASGI entry point: HTTP through Django (its WSGI handler, on a pool of page threads),
websockets through Channels."""

from __future__ import annotations

import gc
import os

from django.core.wsgi import get_wsgi_application

# The servers (uvicorn, Celery) default to production, which refuses to start without
# its own key and hosts; manage.py and `./dev run` choose the dev settings.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

# Django must be set up before anything imports models.
django_wsgi_app = get_wsgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from accounts.realtime import WebsocketAuthMiddleware  # noqa: E402
from config import health, supervision  # noqa: E402
from config.pages import page_application  # noqa: E402
from config.routing import browser_origin_validator, websocket_urlpatterns  # noqa: E402
from games import database  # noqa: E402

# The sockets' database calls, their token or session lookup among them, go one way,
# chosen from the settings and made ready now (the database worker processes), not
# under the first players' moves.
database.start()

# A server pointed at a Redis that is down says so once, clearly, and serves anyway.
health.log_unreachable_redis()

# Started by uvicorn's --workers: leave with the supervisor (config/supervision.py).
supervision.watch_supervisor()

application = ProtocolTypeRouter(
    {
        "http": page_application(django_wsgi_app),  # config/pages.py
        # Browsers authenticate with their session; API clients and bots with the
        # same token as REST, in an "Authorization: Token ..." header. Foreign
        # origins are refused; clients that send no Origin (bots) pass.
        "websocket": browser_origin_validator(
            WebsocketAuthMiddleware(URLRouter(websocket_urlpatterns), run=database.run)
        ),
    }
)

# Everything made at start-up (Django, the apps, the URL confs, imported now rather
# than at the first request) lives as long as the process: keep it out of the cycle
# collector, whose full passes over it paused the event loop for 92-126 ms each at 25
# games; 17 ms after the freeze (docs/benchmarks-live.md, third round). On the browser's
# path, alternating runs at 15-25 games: p99 75-139 ms with it, 94-241 ms without
# (sixth round).
get_resolver().url_patterns  # noqa: B018 - imported for its side effect
gc.freeze()
