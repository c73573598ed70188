"""The Celery app. Configured from Django settings (CELERY_*); the tasks of each app in
TASK_PACKAGES are registered once Django is set up (config.apps.SiteConfig.ready)."""

from __future__ import annotations

import os

from celery import Celery

# The servers (uvicorn, Celery) default to production, which refuses to start without
# its own key and hosts; manage.py and `./dev run` choose the dev settings.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

app = Celery("ttt")
app.config_from_object("django.conf:settings", namespace="CELERY")

#: The packages whose ``tasks`` module holds Celery tasks.
TASK_PACKAGES = ["config", "accounts", "games", "league"]
