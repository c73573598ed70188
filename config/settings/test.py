"""The test suite: same runtime choice as base (embedded unless DATABASE_URL/REDIS_URL)."""

from .base import *  # noqa: F403
from .base import DATABASES, VAR_DIR

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["NAME"] = str(VAR_DIR / "test.sqlite3")
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}

# Serve static files straight from the finders: tests never run collectstatic.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
STATIC_ROOT = VAR_DIR / "static-test"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
