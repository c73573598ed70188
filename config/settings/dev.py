"""Local development and the one-command demo."""

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
# `./dev run` collects static files; a bare `runplatform` still finds them.
WHITENOISE_USE_FINDERS = True
