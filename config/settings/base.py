"""Settings shared by every environment, read from the environment (django-environ).

Two runtimes, one code base:

* **Embedded** (no DATABASE_URL / REDIS_URL): SQLite, Channels' in-memory layer and
  Celery on kombu's in-memory transport, with the worker and beat running as threads
  inside the ASGI process (see ``config.embedded``). Nothing else to start.
* **Services** (DATABASE_URL and REDIS_URL set): PostgreSQL through psycopg 3 with a
  connection pool, Redis as channel layer and Celery broker, and separate processes for
  ASGI, the Celery worker and beat (see Procfile and docs/operations.md).
"""

from __future__ import annotations

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

SECRET_KEY = env("DJANGO_SECRET_KEY", default="dev-only-secret-key-change-me-in-production-0123456789")
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "django_htmx",
    "template_partials",
    "django_countries",
    "django_celery_beat",
    # ours, bottom layer first
    "accounts",
    "games",
    "league",
    "moderation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]

# -- database -------------------------------------------------------------------
LIVE_DB_PROCESSES = 0  # SQLite: one writer, one database thread (games/consumers.py)
DATABASE_URL = env("DATABASE_URL", default="")
if DATABASE_URL:
    DATABASES = {"default": env.db_url_config(DATABASE_URL)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Under ASGI a persistent connection would be opened per thread and never
        # closed; psycopg's pool shares a few real connections instead.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": env.int("DB_POOL_MIN", default=2),
            "max_size": env.int("DB_POOL_MAX", default=20),
            "timeout": env.int("DB_POOL_TIMEOUT", default=10),
        }
        # Parameters bound by the server, and statements run often (a move's, a
        # connect's) prepared once per pooled connection: psycopg then skips building
        # each query text in Python, and PostgreSQL skips parsing and planning it.
        # A move cost ~25% less CPU (bench/live_costs.py; docs/benchmarks-live.md).
        DATABASES["default"]["OPTIONS"]["server_side_binding"] = env.bool("DB_SERVER_SIDE_BINDING", default=True)
        # Each server process runs its websockets' database calls in this many worker
        # processes of its own (games/workers.py); 0: in threads beside its event loop.
        # Two held 75-90 games where threads held 50 (docs/benchmarks-live.md, fifth round).
        LIVE_DB_PROCESSES = env.int("LIVE_DB_PROCESSES", default=2)
else:
    VAR_DIR.mkdir(exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env("SQLITE_PATH", default=str(VAR_DIR / "platform.sqlite3")),
            # WAL lets the ASGI threads read while the embedded worker writes.
            "OPTIONS": {
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
EMBEDDED = not env("REDIS_URL", default="")

# -- auth -------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# -- i18n -------------------------------------------------------------------------
LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# -- static files (whitenoise) ----------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# -- e-mail (guardian consent) -----------------------------------------------------
EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="club@localhost")

# -- REST API ---------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so a refused request answers 401 with WWW-Authenticate.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Tic Tac Toe League API",
    "DESCRIPTION": "Clubs, players, games and tournaments. Every error is {\"code\", \"message\"}.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
}

# -- Redis: channel layer and Celery broker ----------------------------------------
REDIS_URL = env("REDIS_URL", default="")
# Websocket frames larger than this are refused before any parsing (bytes).
WEBSOCKET_MAX_MESSAGE_BYTES = env.int("WEBSOCKET_MAX_MESSAGE_BYTES", default=16 * 1024)

if REDIS_URL:
    # The pub/sub layer: one PUBLISH per group send, nothing dropped at the knee
    # (the list-based RedisChannelLayer silently drops once a process's inbound queue
    # is full; see docs/operations.md and shared BASELINES). redis-py 8 needs the
    # socket timeout lifted and a larger pool (channels_redis issue #422).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": None,
                        "socket_connect_timeout": 10,
                        "max_connections": 10000,
                    }
                ],
                "prefix": env("CHANNEL_PREFIX", default="ttt"),
            },
        }
    }
    CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL)
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
else:
    # In-process layer made safe for the embedded worker thread (config.embedded).
    CHANNEL_LAYERS = {"default": {"BACKEND": "config.embedded.EmbeddedChannelLayer"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.05}

CELERY_TASK_ALWAYS_EAGER = False
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# Periodic tasks the platform needs; synced into django-celery-beat's tables on start.
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    "platform-heartbeat": {
        "task": "config.tasks.heartbeat",
        "schedule": env.float("HEARTBEAT_SECONDS", default=30.0),
    },
    "flag-expired-clocks": {"task": "games.flag_expired_clocks", "schedule": 5.0},
    # Competitions: rounds due, results and arenas a lost task left behind (docs/competitions.md).
    "competition-sweep": {"task": "league.competition_sweep", "schedule": 30.0},
    # Observer rows a crashed server left behind (games.services.sweep_stale_observers).
    "sweep-stale-observers": {"task": "games.sweep_stale_observers", "schedule": 60.0},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
