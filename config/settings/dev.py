"""Local development and the one-command demo."""

import os
import secrets

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import COMMITTED_SECRET_KEYS, SECRET_KEY, VAR_DIR, env

# Off unless DJANGO_DEBUG=1: the demo shows what players see (the platform's own 404
# and 500 pages, tracebacks in the log only), not Django's debug pages.
DEBUG = env.bool("DJANGO_DEBUG", default=False)
# `./dev run` collects static files; a bare `runplatform` still finds them (DEBUG or not:
# whitenoise serves the finders' files itself).
WHITENOISE_USE_FINDERS = True
# A file edited while the server runs is served as it now is: without this, whitenoise
# kept the old length and cut the new file short (an outside walkthrough lost game.js, and
# with it a tournament move, after an edit). Production (prod.py) serves collected files.
WHITENOISE_AUTOREFRESH = True


def _machine_secret_key() -> str:
    """This checkout's own random key, made on first use in var/ (ignored by git), so a
    link signed with a key read in the repository is never valid on anyone's demo.
    Made once for every process of the platform (web, worker, beat) to share: written
    aside, then linked into place, which fails if another process won the race."""
    path = VAR_DIR / "secret_key"
    if not path.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f"secret_key.{os.getpid()}")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(50))
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


SECRET_KEY = SECRET_KEY or _machine_secret_key()
if SECRET_KEY in COMMITTED_SECRET_KEYS:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY is a key from the repository; unset it (a key is made in var/).")
