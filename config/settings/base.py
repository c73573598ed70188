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

from datetime import timedelta
from pathlib import Path
from typing import Any

import environ
from redis.exceptions import ConnectionError as RedisConnectionError

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# No usable default: production requires DJANGO_SECRET_KEY (production.py); the local
# demo makes a random key of its own in var/ (dev.py), the tests one per run (test.py).
# Keys that were ever in the repository sign nothing anywhere: anyone can read them.
SECRET_KEY = env("DJANGO_SECRET_KEY", default="")
COMMITTED_SECRET_KEYS = frozenset({"dev-only-secret-key-change-me-in-production-0123456789"})
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # django.contrib.admin, with the moderation console as its default site
    "moderation.admin_site.ConsoleAdminConfig",
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
    "drf_spectacular_sidecar",  # Swagger UI's files, served by us (no CDN)
    "django_htmx",
    "template_partials",
    "django_countries",
    "django_celery_beat",
    "axes",  # failed-login lockout (docs/security.md, "Abuse limits")
    # ours, bottom layer first (README, "Architecture"; the import contracts in pyproject.toml)
    "accounts",
    "games",
    "league",
    "moderation",
    "config.apps.SiteConfig",  # the site: home page, health check, notifications, runplatform
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # On every response, static files and refusals too (docs/security.md, "Headers and assets").
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    # Before anything looks a path, header or cookie up (docs/security.md, "Bad input").
    "config.middleware.RefuseNulMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: it turns a lockout into the "try again in N minutes" page.
    "axes.middleware.AxesMiddleware",
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
LIVE_DB_PROCESSES = 0  # SQLite: one writer, Channels' one database thread (games/database.py)
# Each server process runs its pages (HTTP views) on this many threads (config/asgi.py):
# the cap on its views in flight. Past it a request waits for a thread, not taking the
# interpreter lock from the loop that relays the sockets. One process, browser path, 15
# games of 12 screens: p99 190-250 ms with 4 (2 no better), 290-980 ms with 8-20 (then
# bounded by the connection pool: docs/benchmarks-live.md, eighth round).
PAGE_THREADS = env.int("PAGE_THREADS", default=4)
# The largest request body a server reads (config/pages.py): the largest thing the
# platform takes is a TRF file of 2 MB (moderation/round_views.py), in a multipart form.
# Past it: 413 before the body is read, or as soon as it grows past it.
MOST_REQUEST_BYTES = env.int("MOST_REQUEST_BYTES", default=4 * 1024 * 1024)
# Django's own limit on a form's fields (2.5 MiB by default) answered a larger body with
# a 400 and a logged traceback; every body a server reads is within the limit above.
DATA_UPLOAD_MAX_MEMORY_SIZE = MOST_REQUEST_BYTES
DATABASE_URL = env("DATABASE_URL", default="")
if DATABASE_URL:
    DATABASES = {"default": env.db_url_config(DATABASE_URL)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Under ASGI a persistent connection would be opened per thread and never
        # closed; psycopg's pool shares a few real connections instead.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": env.int("DB_POOL_MIN", default=2),
            # A connection for each page thread: in a server process only the pages use
            # this pool (its sockets' calls run in the database worker processes).
            "max_size": env.int("DB_POOL_MAX", default=PAGE_THREADS),
            "timeout": env.int("DB_POOL_TIMEOUT", default=10),
        }
        # Parameters bound by the server, and statements run often (a move's, a
        # connect's) prepared once per pooled connection: psycopg then skips building
        # each query text in Python, and PostgreSQL skips parsing and planning it.
        # A move cost ~25% less CPU (bench/live_costs.py; docs/benchmarks-live.md).
        DATABASES["default"]["OPTIONS"]["server_side_binding"] = env.bool("DB_SERVER_SIDE_BINDING", default=True)
        # Each server process runs its websockets' database calls in this many worker
        # processes of its own (games/workers.py); 0: on Channels' one database thread.
        # On the browser's path one server held 15-20 games with two, under 5 without
        # (docs/benchmarks-live.md, sixth round).
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
AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out log-in before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    # Before ModelBackend: vetoes the Celery schedules' permissions for all but superusers.
    "moderation.permissions.SuperusersOnlyAppsBackend",
    # The platform's own permissions, django-rules predicates (moderation/permissions.py).
    "rules.permissions.ObjectPermissionBackend",
    # Django's ModelBackend, with the profile in the user's query (accounts/backends.py).
    # A session made under Django's own backend class ends at its next request: its
    # player signs in again once.
    "accounts.backends.ProfileModelBackend",
]
# Django's database sessions, read in hand-written SQL (accounts/sessions.py).
SESSION_ENGINE = "accounts.sessions"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# A password-reset link works once, and for a day (Django's default is three): long
# enough for a guardian to read the mail, short enough for a stale inbox (docs/accounts.md).
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24
# The sign-up age screen (docs/security.md, "The age gate"): how long an answer that
# needed a guardian is remembered under each key naming who gave it. The device (client
# address + browser) can be shared by strangers behind one router: kept short.
AGE_SCREEN_SECONDS = {
    "session": 60 * 60 * 24 * 14,
    "browser": 60 * 60 * 24 * 365,
    "username": 60 * 60 * 24 * 30,
    "email": 60 * 60 * 24 * 30,
    "device": env.int("AGE_SCREEN_DEVICE_SECONDS", default=60 * 60),
}

# -- abuse limits (docs/security.md, "Abuse limits") --------------------------------
# Reverse proxies in front of the server that append to X-Forwarded-For: the client's
# address is taken that many places from the right; 0: REMOTE_ADDR, the header ignored
# (otherwise anyone could pick their own address and dodge every per-address limit).
NUM_PROXIES = env.int("NUM_PROXIES", default=0)
# Failed log-ins (page, API, admin) by django-axes, counted per username AND address:
# a guesser gets AXES_FAILURE_LIMIT tries per cool-off from each address, and cannot
# lock the real player out from their own address.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.float("AXES_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "accounts.limits.client_ip"
# The username counted as sign-in compares it: in any case ("Sam" and "sam" are one count).
AXES_USERNAME_CALLABLE = "accounts.limits.axes_username"
AXES_LOCKOUT_CALLABLE = "accounts.limits.lockout_response"
# A try during the lockout does not restart it, so "try again in N minutes" holds.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
# No row per successful log-in (addresses of children kept forever); failures only.
AXES_DISABLE_ACCESS_LOG = True

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
# Where a guardian writes to withdraw consent, and a player whose consent link expired
# (accounts.services.contact_address): a monitored address in production.
CONTACT_EMAIL = env("CONTACT_EMAIL", default=DEFAULT_FROM_EMAIL)
# The site's address as players reach it: the links in notices' e-mails.
SITE_URL = env("SITE_URL", default="http://127.0.0.1:8000")

# -- REST API ---------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so a refused request answers 401 with WWW-Authenticate.
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    "EXCEPTION_HANDLER": "config.api.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "config.api.Pagination",
    "PAGE_SIZE": 50,
    # DRF's two, the browsable one without the forms a view naming no serializer cannot build.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer", "config.renderers.BrowsableAPIRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.JSONParser",  # DRF's, answering deep nesting and lone surrogates with 400
        # Each holds a POST's or PUT's body to the fields its operation documents (config.parsers).
        "config.parsers.FormParser",
        "config.parsers.MultiPartParser",
    ],
    # Writes (POST, PUT, PATCH, DELETE) per user, or per address when signed out; sign-up
    # and log-in per address, stricter. Reads are not throttled. accounts/limits.py.
    "DEFAULT_THROTTLE_CLASSES": [
        "accounts.limits.UserWriteThrottle",
        "accounts.limits.AnonWriteThrottle",
        "accounts.limits.ScopedThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "user-write": env("THROTTLE_USER_WRITE", default="120/min"),
        "anon-write": env("THROTTLE_ANON_WRITE", default="30/min"),
        "login": env("THROTTLE_LOGIN", default="10/min"),
        "signup": env("THROTTLE_SIGNUP", default="20/hour"),
        "password-reset": env("THROTTLE_PASSWORD_RESET", default="10/hour"),
    },
    "NUM_PROXIES": NUM_PROXIES,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Tic Tac Toe League API",
    "DESCRIPTION": "Clubs, players, games and tournaments. Every error is {\"code\", \"message\"}.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # drf-spectacular's own hook, then ours: request bodies refuse other fields.
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "config.schema.refuse_other_fields"],
    # /api/docs/ from our own static files: it works offline and passes the CSP.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No validator badge: it would fetch an image from validator.swagger.io.
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
}

# -- headers: Content-Security-Policy, Permissions-Policy (docs/security.md) ------------
# Scripts and styles only from our own files: no inline script, style element or style
# attribute anywhere (templates/, static/; htmx's indicator style is in site.css). 'self'
# covers the websockets of the same host (CSP 3). The admin needs nothing more (the one
# <style> block Django's admin can write is only for actions_on_top = actions_on_bottom
# = False, which no admin of ours sets).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
# Powerful browser features the platform never uses, off for it and anything it embeds.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    feature: []
    for feature in (
        "accelerometer", "autoplay", "browsing-topics", "camera", "display-capture", "encrypted-media",
        "geolocation", "gyroscope", "hid", "idle-detection", "magnetometer", "microphone", "midi",
        "payment", "publickey-credentials-get", "screen-wake-lock", "serial", "usb", "xr-spatial-tracking",
    )
}

# -- Redis: channel layer and Celery broker ----------------------------------------
REDIS_URL = env("REDIS_URL", default="")
# Websocket frames larger than this are refused before any parsing (bytes).
WEBSOCKET_MAX_MESSAGE_BYTES = env.int("WEBSOCKET_MAX_MESSAGE_BYTES", default=16 * 1024)
# Frames a socket may send: a token bucket of WEBSOCKET_FRAME_BURST frames refilled at
# WEBSOCKET_FRAMES_PER_SECOND. A frame over it is dropped with a "rate-limited" error
# frame; WEBSOCKET_FLOOD_FRAMES dropped in a row close the socket (4429).
WEBSOCKET_FRAMES_PER_SECOND = env.float("WEBSOCKET_FRAMES_PER_SECOND", default=10.0)
WEBSOCKET_FRAME_BURST = env.int("WEBSOCKET_FRAME_BURST", default=30)
WEBSOCKET_FLOOD_FRAMES = env.int("WEBSOCKET_FLOOD_FRAMES", default=50)
# And all the sockets of one client address together, in one server process: a club room
# of 60 players moving every couple of seconds sends about 30 a second (0: no such limit).
WEBSOCKET_ADDRESS_FRAMES_PER_SECOND = env.float("WEBSOCKET_ADDRESS_FRAMES_PER_SECOND", default=60.0)
WEBSOCKET_ADDRESS_FRAME_BURST = env.int("WEBSOCKET_ADDRESS_FRAME_BURST", default=200)
# Open sockets one client address may hold in one server process (0: no cap). Generous,
# as a club hall behind one router shares an address and a page opens two or three.
WEBSOCKET_MAX_PER_ADDRESS = env.int("WEBSOCKET_MAX_PER_ADDRESS", default=500)

if REDIS_URL:
    # The pub/sub layer: one PUBLISH per group send, nothing dropped at the knee
    # (the list-based RedisChannelLayer silently drops once a process's inbound queue
    # is full; see docs/operations.md, "Why the pub/sub channel layer"). redis-py 8 needs the
    # socket timeout lifted and a larger pool (channels_redis issue #422), so the
    # subscriptions are bounded in time instead (config/channel_layer.py).
    CHANNEL_LAYERS: dict[str, dict[str, Any]] = {
        "default": {
            "BACKEND": "config.channel_layer.BoundedRedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": None,
                        # A broadcast after a commit waits at most this for Redis (and
                        # accounts/broadcast.py gives a send up after SEND_SECONDS).
                        "socket_connect_timeout": 2,
                        "max_connections": 10000,
                        # A pooled connection Redis dropped (a restart) fails once; one retry
                        # on a new one sends it, where the update was lost and every screen
                        # waited for its resync (5 s). A publish retried after Redis took
                        # it (a break between the send and the answer) arrives twice: the
                        # same board drawn again.
                        "retry_on_error": [RedisConnectionError],
                    }
                ],
                "prefix": env("CHANNEL_PREFIX", default="ttt"),
            },
        }
    }
    CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL)
    # Redis redelivers an unacknowledged task (a killed worker's) after this many
    # seconds: above the longest task (a full recompute, 37.5 s for a million games), far
    # below kombu's hour; a task redelivered while still running is harmless (each is
    # idempotent). The killed-worker tests lower it. Socket timeouts bound a publish to
    # a Redis that is down or hung (docs/operations.md, "When Redis or a worker is down").
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, float] = {
        "visibility_timeout": env.float("LEAGUE_BROKER_VISIBILITY_TIMEOUT", default=300.0),
        # Each worker looks for such tasks every 10 s (kombu's unacked_restore_interval),
        # but kombu 5.7 scans only one look in 10 by default: a killed worker's task came
        # back 100 s after its timeout. Every look scans here (one small sorted-set read).
        "unacked_restore_throttle": 1,
        "socket_connect_timeout": 2.0,
        "socket_timeout": 3.0,
    }
    # Shared by every server process: the API throttles' counts (accounts/limits.py).
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": env("CACHE_URL", default=REDIS_URL),
            "KEY_PREFIX": env("CACHE_PREFIX", default="ttt"),
            # The throttles fail open when Redis is down (accounts/limits.py): fail fast.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    # In-process layer made safe for the embedded worker thread (config.embedded).
    CHANNEL_LAYERS = {"default": {"BACKEND": "config.embedded.EmbeddedChannelLayer"}}
    # A host named, though the memory transport ignores it: without one kombu warns
    # "No hostname was supplied" on the first run's console.
    CELERY_BROKER_URL = "memory://localhost/"
    CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.05}
    # One process: its memory holds the throttles' counts.
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

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
# When the broker goes away a task already running finishes (its database work is the
# truth; its unsent acknowledgement only means it runs again, and every task is
# idempotent) rather than being cancelled: a Redis blip must not throw away a long
# pairing. Said here because Celery 6 turns the default the other way.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# A worker that loses the broker tries again for as long as it is away. Celery's default
# gives up after 100 attempts (2 s apart, growing to 30: about 46 minutes), and the worker
# then logged "Unrecoverable error" with a traceback and exited, so no task ran after
# Redis came back until someone restarted it (a chaos probe).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A write queues its task after commit; with the broker down the publish gives up after
# one quick retry (0.6 s measured, refused port) and a sweep does the work later.
CELERY_BROKER_CONNECTION_TIMEOUT = 2.0
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
# A game whose rules have no clock ends once nobody has moved for this long: the seat
# to move loses as if it ran out of time (docs/operations.md, "Clocks and the idle
# limit"). Three days: a weekend away is no abandonment; a dead game leaves the lists.
GAME_IDLE_SECONDS = env.int("GAME_IDLE_SECONDS", default=3 * 24 * 3600)

# Periodic tasks the platform needs; synced into django-celery-beat's tables on start.
CELERY_BEAT_SCHEDULE: dict[str, dict] = {
    "platform-heartbeat": {
        "task": "config.tasks.heartbeat",
        "schedule": env.float("HEARTBEAT_SECONDS", default=30.0),
    },
    "flag-expired-clocks": {"task": "games.flag_expired_clocks", "schedule": 5.0},
    # Competitions: rounds due, results and arenas a lost task left behind (docs/competitions.md).
    "competition-sweep": {"task": "league.competition_sweep", "schedule": 30.0},
    # AI moves and ratings whose task was lost (broker down, worker killed): docs/operations.md.
    "play-stalled-ai-seats": {"task": "games.play_stalled_ai_seats", "schedule": 5.0},
    "ratings-sweep": {"task": "league.ratings_sweep", "schedule": 60.0},
    # Observer rows a crashed server left behind (games.observing.sweep_stale_observers):
    # gone within 25 s (docs/protocol.md); 14-18 ms a run for 1,500 live rows.
    "sweep-stale-observers": {"task": "games.sweep_stale_observers", "schedule": 15.0},
    # Presence rows (who is online) a crashed server left behind: accounts/presence.py.
    "sweep-stale-presence": {"task": "accounts.sweep_stale_presence", "schedule": 15.0},
    # Idempotency keys past their 24 hours (accounts/idempotency.py).
    "expire-idempotency-keys": {"task": "accounts.expire_idempotency_keys", "schedule": 3600.0},
    # Notices' e-mails whose enqueue after commit was lost (accounts.notices.sweep_unsent_emails).
    "sweep-unsent-notice-emails": {"task": "accounts.sweep_unsent_notice_emails", "schedule": 120.0},
}

# Celery's INFO lines about the periodic tasks above (beat "Sending due task", the
# worker's "received" and "succeeded": six lines every 5 s for the clock check alone)
# are dropped; other tasks' lines, and every warning and error, stay (docs/operations.md).
# A client's broken frame is a warning of one line, not a server error with a traceback.
# So is a request Django refuses as suspicious (400), logged on django.security.<its
# exception>: a filter on a logger does not see its children's records, hence each name.
SUSPICIOUS_REQUEST_LOGGERS = [f"django.security.{name}" for name in (
    "SuspiciousOperation", "DisallowedHost", "DisallowedRedirect", "TooManyFieldsSent", "TooManyFilesSent",
    "RequestDataTooBig", "SuspiciousFileOperation", "SuspiciousMultipartForm", "SuspiciousSession")]
#: The components /healthz checks (config/health.py), each with its own outage in the log.
HEALTH_COMPONENTS = ("database", "channel_layer", "broker", "database_workers")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {
        "routine_tasks": {
            "()": "config.log_filters.QuietRoutineTasks",
            "tasks": sorted({entry["task"] for entry in CELERY_BEAT_SCHEDULE.values()}),
        },
        "client_faults": {"()": "config.log_filters.ClientFaultsAsWarnings"},
        "redis_outage": {"()": "config.log_filters.OncePerOutage",
                         "messages": ["Unexpected exception in receive task"]},
        # Beat's due tasks it cannot send while the broker is away (each with its stack).
        "broker_outage": {"()": "config.log_filters.OncePerOutage",
                          "prefixes": ["Message Error: Couldn't apply scheduled task"]},
        # A Celery worker, at every loss of the broker, warned that Celery 6 will cancel the
        # running late-acknowledged tasks then: nine lines quoting Celery's source, taken for
        # a traceback by an operator (a chaos probe). The platform has chosen (above,
        # CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS); "Connection to broker
        # lost" and each reconnect attempt are still logged.
        "celery_notices": {"()": "config.log_filters.DropNotices",
                           "fragments": ["In Celery 5.1 we introduced an optional breaking change"]},
        # /healthz logged a warning for each component down at every probe: a load balancer
        # asking every 2 s made 60 lines a minute of a Redis outage (a chaos probe). One
        # line when a component goes down, then one a minute, for each component.
        **{f"health_{name}": {"()": "config.log_filters.OncePerOutage", "prefixes": [f"health check: {name} is down"]}
           for name in HEALTH_COMPONENTS},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        **{name: {"filters": ["routine_tasks"]} for name in ("celery.worker.strategy", "celery.app.trace")},
        "celery.beat": {"filters": ["routine_tasks", "broker_outage"]},
        "uvicorn.error": {"filters": ["client_faults"]},
        "django.request": {"filters": ["client_faults"]},
        **{name: {"filters": ["client_faults"]} for name in SUSPICIOUS_REQUEST_LOGGERS},
        "channels_redis.pubsub": {"filters": ["redis_outage"]},
        "py.warnings": {"filters": ["celery_notices"]},  # Celery sends Python's warnings there
        "config.health": {"filters": [f"health_{name}" for name in HEALTH_COMPONENTS]},
    },
}
