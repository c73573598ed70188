"""The pages through Django's ASGI handler, as config/asgi.py served them before
2026-11-29: bench/page_handlers.py's comparison (pages only, no websockets)."""

from __future__ import annotations

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

application = get_asgi_application()

# As config/asgi.py does: what start-up made, kept out of the cycle collector.
from django.urls import get_resolver  # noqa: E402

get_resolver().url_patterns  # noqa: B018 - imported for its side effect
gc.freeze()
