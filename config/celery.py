"""The Celery app. Configured from Django settings (CELERY_*), tasks found in each app."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("ttt")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["config", "accounts", "games", "league"])
