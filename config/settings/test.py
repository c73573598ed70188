"""The test suite: same runtime choice as base (embedded unless DATABASE_URL/REDIS_URL)."""

import os

from .base import *  # noqa: F403
from .base import DATABASES, VAR_DIR

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# A test database of this run's own (by process id), so two runs on one machine never
# share or drop each other's.
_RUN = os.getpid()
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["NAME"] = str(VAR_DIR / f"test-{_RUN}.sqlite3")
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-db-{_RUN}.sqlite3")}
else:
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{_RUN}"}

# The consumers under test run in this process, on the test database: their database
# calls stay in threads here. Real servers started by the tests (config.settings.dev)
# keep their worker processes (games/workers.py).
LIVE_DB_PROCESSES = 0

# Serve static files straight from the finders: tests never run collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
STATIC_ROOT = VAR_DIR / "static-test"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
