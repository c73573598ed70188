"""The Celery app. Configured from Django settings (CELERY_*), tasks found in each app."""

from __future__ import annotations

import os

from celery import Celery

# The servers (uvicorn, Celery) default to production, which refuses to start without
# its own key and hosts; manage.py and `./dev run` choose the dev settings.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

app = Celery("ttt")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["config", "accounts", "games", "league"])
