"""Serve the platform with uvicorn; on the embedded default, also Celery's worker and beat."""

from __future__ import annotations

import uvicorn
from django.conf import settings
from django.core.management.base import BaseCommand

from config.embedded import EmbeddedCelery


class Command(BaseCommand):
    help = "Run the ASGI server (and, with no REDIS_URL, an embedded Celery worker and beat)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-celery", action="store_true", help="Do not start the embedded worker/beat.")

    def handle(self, *args, host: str, port: int, no_celery: bool, **options):
        embedded = None
        if settings.EMBEDDED and not no_celery:
            embedded = EmbeddedCelery(beat=True).start()
        self.stdout.write(f"Serving on http://{host}:{port}/ ({'embedded' if settings.EMBEDDED else 'services'} runtime)")
        try:
            uvicorn.run(
                "config.asgi:application",
                host=host,
                port=port,
                lifespan="off",
                # The server closes only absurd frames; smaller oversized ones get an error frame.
                ws_max_size=max(1024 * 1024, 4 * settings.WEBSOCKET_MAX_MESSAGE_BYTES),
                log_level="info",
                # The client's address is Django's to read (NUM_PROXIES): uvicorn would
                # otherwise take X-Forwarded-For from any local client as the address, and
                # every per-address limit with it (docs/security.md, "Abuse limits").
                proxy_headers=False,
            )
        finally:
            if embedded is not None:
                embedded.stop()
