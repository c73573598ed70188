"""Production: real services, HTTPS, strict cookies. Passes `manage.py check --deploy`."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import COMMITTED_SECRET_KEYS, env

DEBUG = False
# Required, the operator's own: a key from the repository, or a short one, would let
# anyone sign consent links and sessions (docs/security.md, "What an operator must set").
SECRET_KEY = env("DJANGO_SECRET_KEY", default="")
if not SECRET_KEY:
    raise ImproperlyConfigured("Set the DJANGO_SECRET_KEY environment variable to a random key of your own.")
if SECRET_KEY in COMMITTED_SECRET_KEYS or len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is a key from the repository or too weak: set a random key of at least "
        "50 characters of your own (python -c 'import secrets; print(secrets.token_urlsafe(50))')."
    )
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS")

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.smtp.EmailBackend")
# SMTP from one variable, e.g. EMAIL_URL=submission://user:password@smtp.example.org:587
# (django-environ: host, port, user, password, TLS); unset, Django's own defaults.
if env("EMAIL_URL", default=""):
    _email = env.email_url("EMAIL_URL")
    EMAIL_HOST, EMAIL_PORT = _email["EMAIL_HOST"], _email["EMAIL_PORT"]
    EMAIL_HOST_USER, EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_USER"], _email["EMAIL_HOST_PASSWORD"]
    EMAIL_USE_TLS, EMAIL_USE_SSL = _email.get("EMAIL_USE_TLS", False), _email.get("EMAIL_USE_SSL", False)
