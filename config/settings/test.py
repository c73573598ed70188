"""The test suite: same runtime choice as base (embedded unless DATABASE_URL/REDIS_URL)."""

import os
import secrets

from .base import *  # noqa: F403
from .base import DATABASES, VAR_DIR

DEBUG = False
# A key of this run's own: no key that tests sign with is ever valid on a server.
SECRET_KEY = "test-only-" + secrets.token_urlsafe(40)
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
# calls stay on Channels' thread here. Real servers started by the tests (config.settings.dev)
# keep their worker processes (games/workers.py).
LIVE_DB_PROCESSES = 0

# Serve static files straight from the finders: tests never run collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
STATIC_ROOT = VAR_DIR / "static-test"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)

# Abuse limits stay on, set far above what the suite does in one test; the tests of the
# limits themselves set low ones (tests/accounts/test_throttling.py). Counts on Redis
# are this run's own.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {scope: "100000/min" for scope in REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]},  # noqa: F405
}
WEBSOCKET_FRAMES_PER_SECOND = 10_000.0
WEBSOCKET_FRAME_BURST = 10_000
CACHES["default"]["KEY_PREFIX"] = f"test-{_RUN}"  # noqa: F405
# Redis's pub/sub channels are shared by all its databases: a prefix of this run's own
# keeps two runs (pytest-xdist's workers, whose games have the same ids) apart.
if "prefix" in CHANNEL_LAYERS["default"].get("CONFIG", {}):  # noqa: F405
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = f"ttt-test-{_RUN}"  # noqa: F405
