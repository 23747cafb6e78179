"""Settings for fbservice, driven by the environment.

Every knob has a default that works on a laptop; production values come from
environment variables (or NAME_FILE for Docker secrets). See README.md for the table.

DATABASE_URL / CELERY_BROKER_URL: when unset, and FB_EMBEDDED is true (the default), the
embedded PostgreSQL / Redis from fbservice/embedded.py are started (or reused) while this
module loads, and their URLs are exported to the environment. `make run` and `make test`
start them before Django does, through `python -m fbservice.embedded exec`, so this
fallback only matters when someone runs `python manage.py ...` directly.
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    if value.strip().lower() in _TRUE:
        return True
    if value.strip().lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false/1/0), got {value!r}")


def envint(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {value!r}") from None


def envfloat(name: str, default: float) -> float:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        return float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, got {value!r}") from None


def envsecret(name: str, default: str = "") -> str:
    """NAME from the environment, or the contents of the file named by NAME_FILE."""
    path = os.environ.get(f"{name}_FILE")
    if path:
        try:
            return Path(path).read_text().strip()
        except OSError as exc:
            raise ImproperlyConfigured(f"{name}_FILE: cannot read {path}: {exc}") from exc
    return os.environ.get(name, default)


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def envnetworks(name: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """Comma-separated addresses or networks (``10.0.0.0/8``, ``::1``)."""
    networks = []
    for item in envlist(name, ""):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ImproperlyConfigured(f"{name}: not an address or network: {item!r}") from None
    return networks


def parse_database_url(url: str) -> dict[str, object]:
    """postgres://user:password@host:port/dbname?option=value -> Django DATABASES entry.

    A unix socket directory may be given as ?host=/path or percent-encoded in the host
    part (postgres://%2Frun%2Fpostgresql/db). Other query options go to OPTIONS (libpq
    keywords such as sslmode or connect_timeout).
    """
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql", "pgsql"}:
        raise ImproperlyConfigured(f"DATABASE_URL must be a postgres:// URL, got {parts.scheme}://")
    options = dict(parse_qsl(parts.query))
    host = options.pop("host", None) or unquote(parts.hostname or "")
    if parts.netloc and "%2f" in parts.netloc.lower():
        host = unquote(parts.netloc.rsplit("@", 1)[-1])
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": host,
        "PORT": str(parts.port or "") if not host.startswith("/") else "",
        "OPTIONS": options,
    }


# --------------------------------------------------------------------------- core

DEBUG = envbool("DEBUG", True)
SECRET_KEY = envsecret("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is false")
    SECRET_KEY = "django-insecure-local-development-only"  # noqa: S105 - DEBUG only

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "games",
    "events",
    "api",
    "web",
    "tournaments",
    "fbservice",  # the project's management commands (fbservice/management/commands/)
    "webhooks",
    "ratings",
]

MIDDLEWARE = [
    # First: the client's address and scheme, from X-Forwarded-* of TRUSTED_PROXIES only.
    "api.proxies.ProxyHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Static files (the pages' JS/CSS, the admin's) served by gunicorn itself, DEBUG or not.
    "api.middleware.StaticFilesMiddleware",  # WhiteNoise, usable by async views too
    # A lost database connection in a view is a 503 `database_unavailable`, not a 500.
    "api.middleware.DatabaseUnavailableMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "fbservice.urls"
WSGI_APPLICATION = "fbservice.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context.site",
            ],
        },
    },
]

# The site's name in the web pages' header and titles (a game's own pages show its title).
FB_SITE_NAME = os.environ.get("FB_SITE_NAME", "Card Tables")

# --------------------------------------------------------------------------- servers

FB_EMBEDDED = envbool("FB_EMBEDDED", True)
if FB_EMBEDDED and not (envsecret("DATABASE_URL") and envsecret("CELERY_BROKER_URL")):
    from fbservice import embedded

    embedded.ensure_environment()

DATABASE_URL = envsecret("DATABASE_URL")
if not DATABASE_URL:
    raise ImproperlyConfigured("DATABASE_URL is not set (and FB_EMBEDDED is off)")
DATABASES = {"default": parse_database_url(DATABASE_URL)}
DATABASES["default"]["CONN_MAX_AGE"] = envint("CONN_MAX_AGE", 60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

CELERY_BROKER_URL = envsecret("CELERY_BROKER_URL")
if not CELERY_BROKER_URL:
    raise ImproperlyConfigured("CELERY_BROKER_URL is not set (and FB_EMBEDDED is off)")
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
# The queue tasks are sent to and workers consume. The timer tests give each run its own,
# so they never steal (or feed) the tasks of a developer's `make run` worker.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
# A task is acknowledged after it ran, not when received: a worker killed while holding a
# (countdown) task leaves it to be delivered again. Every task here is idempotent.
CELERY_TASK_ACKS_LATE = True
# A pool process that dies mid-task (OOM, SIGKILL) gets its task re-queued, not acked.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A task running when the broker connection is lost finishes (it takes milliseconds); its
# acknowledgement is lost and the broker delivers it again (fbservice/celery.py).
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# Each process reserves one ready task at a time: a killed worker strands few of them
# (countdown tasks are held apart from this limit; Celery raises the QoS for them).
CELERY_WORKER_PREFETCH_MULTIPLIER = envint("CELERY_WORKER_PREFETCH_MULTIPLIER", 1)
CELERY_TASK_IGNORE_RESULT = True
# Celery's Django fixup closes every database connection before and after each task unless
# this is set: a new PostgreSQL connection per task, about 10 ms, more than a window close
# itself costs. Instead fbservice/celery.py recycles them as Django does around a request
# (close_old_connections: CONN_MAX_AGE, health checks, a connection broken by a database
# restart), so the fixup's own recycling is pushed out of the way.
CELERY_DB_REUSE_MAX = 1_000_000
# Timer tasks never wait longer than this in a worker's hands: a longer wait is split
# into countdowns of at most this length (the task re-schedules itself for the rest).
FB_MAX_COUNTDOWN_SECONDS = envint("FB_MAX_COUNTDOWN_SECONDS", 600)
# Redis (not RabbitMQ) re-delivers a task that was received but not acknowledged once
# `visibility_timeout` seconds have passed, to whichever worker asks next, even when the
# worker holding it is alive and merely waiting for its countdown: with a visibility timeout
# shorter than a countdown, a live worker runs the task twice (harmless here, closing is
# idempotent, but noisy). So it must exceed the longest countdown (FB_MAX_COUNTDOWN_SECONDS).
# The price: tasks held by a killed worker come back only after this long, which is why
# the sweeper below, not re-delivery, is what guarantees timers on Redis. RabbitMQ ignores
# it (it re-delivers a dead consumer's unacked messages at once).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": max(
        envint("FB_REDIS_VISIBILITY_TIMEOUT", 7200), 2 * FB_MAX_COUNTDOWN_SECONDS
    ),
    # Redis only (RabbitMQ ignores them): a connection attempt to a broker that is away
    # gives up within 2 s, and an idle connection is checked every 10 s and kept alive by
    # TCP, so a dead broker is noticed by workers and senders alike.
    "socket_connect_timeout": 2,
    "socket_keepalive": True,
    "health_check_interval": 10,
}
# Recovery after a broker outage (docs/timers.md#brokers): the worker retries for ever
# (Celery's default gives up after 100 attempts and stops the worker), at most a second
# apart (fbservice.broker.Consumer), so it is back within about a second of the broker.
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CONSUMER = "fbservice.broker:Consumer"
# Seconds to wait for a broker connection (Celery's default: 4).
CELERY_BROKER_CONNECTION_TIMEOUT = envfloat("CELERY_BROKER_CONNECTION_TIMEOUT", 2.0)
# RabbitMQ heartbeats (Celery's default: 120 s): a broker that vanished without closing
# its connections (a host lost, a network split) is noticed within two beats.
CELERY_BROKER_HEARTBEAT = envfloat("CELERY_BROKER_HEARTBEAT", 10.0)
# Sending a task after a command: one quick retry (a connection left broken by a broker
# restart is replaced), then give up; games.send_guard then skips sends for a while and
# the clock loop acts on the deadlines. Celery's default waits through three retries.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.1,
    "interval_max": 0.1,
}
# Beat keeps its schedule in memory and only touches "<this>.sent", its heartbeat for the
# health check (fbservice/beat.py; the folder is made if missing).
CELERY_BEAT_SCHEDULE_FILENAME = os.environ.get(
    "CELERY_BEAT_SCHEDULE_FILENAME", str(BASE_DIR / ".local" / "celerybeat-schedule")
)
CELERY_BEAT_SCHEDULER = "fbservice.beat:Scheduler"
# Seconds the /healthz broker probe may take before reporting the broker down.
HEALTH_BROKER_TIMEOUT = float(os.environ.get("HEALTH_BROKER_TIMEOUT", "1.5"))

# --------------------------------------------------------------------------- game knobs

# Store a state snapshot every N events of a game.
FB_SNAPSHOT_EVERY = envint("FB_SNAPSHOT_EVERY", 50)
# Each process keeps up to this many folded games and started tables in memory (games.cache;
# the webhook relay its folds, webhooks.folds),
# checked against the database on every use; 0 turns the caches off.
FB_CACHE_GAMES = envint("FB_CACHE_GAMES", 2000)
# Bots: true runs them in the request, right after each command (tests, scripts); false
# (the default) has a Celery task make each bot move after FB_BOT_THINK_SECONDS.
FB_BOTS_INLINE = envbool("FB_BOTS_INLINE", False)
FB_BOT_THINK_SECONDS = envfloat("FB_BOT_THINK_SECONDS", 1.0)
# Whether the service schedules Celery tasks at all (window closes, bot moves, turn
# timeouts). Only tests turn it off; reads, commands and the sweeper still close windows.
FB_SCHEDULE_TASKS = envbool("FB_SCHEDULE_TASKS", True)
# The sweeper runs every FB_SWEEP_SECONDS and does what a lost task did not:
# closes windows, plays timed-out turns and moves bots overdue by FB_SWEEP_GRACE_SECONDS.
FB_SWEEP_SECONDS = envfloat("FB_SWEEP_SECONDS", 2.0)
FB_SWEEP_GRACE_SECONDS = envfloat("FB_SWEEP_GRACE_SECONDS", 1.0)
# How long a takeback request (games.takeback: an undo the next seat must agree to) stays
# open; unanswered, it expires and nothing changes.
FB_TAKEBACK_SECONDS = envint("FB_TAKEBACK_SECONDS", 30)
# Every Celery worker also runs the sweeper on a thread of its own, one worker at a time
# (a PostgreSQL advisory lock; games/sweeper.py): timers go on while beat is down.
FB_WORKER_SWEEP = envbool("FB_WORKER_SWEEP", True)
# The clock loop (games/clock_loop.py, `manage.py clock_loop`): acts from PostgreSQL alone on
# deadlines no task has acted on. While the broker answers and a worker runs, a task not done
# yet is late (a loaded worker), so it gets FB_CLOCK_GRACE_SECONDS; while the broker is
# unreachable or no worker runs, and for FB_CLOCK_RECOVERY_SECONDS after (tasks not sent
# meanwhile are missing), the loop is the only timer and waits FB_CLOCK_OUTAGE_GRACE_SECONDS.
# A claim on a clock row lasts FB_CLOCK_LEASE_SECONDS (a dead loop's rows wait that long for
# another loop); with nothing due, it looks again at least every FB_CLOCK_IDLE_SECONDS
# (appends wake it sooner). It acts on FB_CLOCK_THREADS games at once.
FB_CLOCK_GRACE_SECONDS = envfloat("FB_CLOCK_GRACE_SECONDS", 2.0)
FB_CLOCK_OUTAGE_GRACE_SECONDS = envfloat("FB_CLOCK_OUTAGE_GRACE_SECONDS", 0.3)
FB_CLOCK_RECOVERY_SECONDS = envfloat("FB_CLOCK_RECOVERY_SECONDS", 30.0)
FB_CLOCK_LEASE_SECONDS = envfloat("FB_CLOCK_LEASE_SECONDS", 10.0)
FB_CLOCK_IDLE_SECONDS = envfloat("FB_CLOCK_IDLE_SECONDS", 1.0)
FB_CLOCK_THREADS = envint("FB_CLOCK_THREADS", 4)
# After a task could not be sent, this process sends none for this long (doubling while the
# broker stays away, up to 8 times): commands never wait on a dead broker (games.send_guard).
FB_SEND_BACKOFF_SECONDS = envfloat("FB_SEND_BACKOFF_SECONDS", 1.0)
# /healthz counts deadlines more than this many seconds past due as overdue.
HEALTH_OVERDUE_SECONDS = envfloat("HEALTH_OVERDUE_SECONDS", 1.0)
# /healthz's webhook relay is not ok once an event has waited this long to be relayed (the
# relay hears appends at once and catches up every FB_WEBHOOK_SWEEP_SECONDS; a failover
# takes about two of those).
HEALTH_RELAY_LAG_SECONDS = envfloat("HEALTH_RELAY_LAG_SECONDS", 10.0)
# How often beat advances running tournaments (tournaments.tasks.sweep).
FB_TOURNAMENT_SWEEP_SECONDS = envfloat("FB_TOURNAMENT_SWEEP_SECONDS", 2.0)
# A deciding ruling on a tournament's game this many days after its end still moves its
# final standings (the sweep keeps taking rulings in); later ones only on a manual advance.
FB_TOURNAMENT_APPEAL_DAYS = envint("FB_TOURNAMENT_APPEAL_DAYS", 7)
CELERY_BEAT_SCHEDULE = {
    "fb-sweep": {
        "task": "games.tasks.sweep",
        "schedule": FB_SWEEP_SECONDS,
        # A sweep that waited longer than one interval is redundant: the next one is due.
        "options": {"expires": max(FB_SWEEP_SECONDS, 1.0)},
    },
    # Rounds that run themselves (tournaments.tasks): a round ends within one interval of
    # its last game's end, and the next is seated.
    "fb-tournaments": {
        "task": "tournaments.tasks.sweep",
        "schedule": FB_TOURNAMENT_SWEEP_SECONDS,
        "options": {"expires": max(FB_TOURNAMENT_SWEEP_SECONDS, 1.0)},
    },
}

# --------------------------------------------------------------------------- webhooks

# Webhooks (docs/webhooks.md). Loopback endpoints are refused unless this is on: for
# development and tests only, never in production (private, link-local and metadata
# addresses are refused whatever it says).
FB_WEBHOOK_ALLOW_LOOPBACK = envbool("FB_WEBHOOK_ALLOW_LOOPBACK", False)
# One attempt's time limit (connect and whole exchange), and how much of the answer is read.
FB_WEBHOOK_TIMEOUT_SECONDS = envfloat("FB_WEBHOOK_TIMEOUT_SECONDS", 10.0)
FB_WEBHOOK_MAX_RESPONSE_BYTES = envint("FB_WEBHOOK_MAX_RESPONSE_BYTES", 4096)
# A delivery is retried with exponential backoff (from BACKOFF, doubling, at most
# BACKOFF_MAX apart) for RETRY seconds; then it fails and its subscription is disabled.
FB_WEBHOOK_RETRY_SECONDS = envint("FB_WEBHOOK_RETRY_SECONDS", 24 * 3600)
FB_WEBHOOK_BACKOFF_SECONDS = envfloat("FB_WEBHOOK_BACKOFF_SECONDS", 5.0)
FB_WEBHOOK_BACKOFF_MAX_SECONDS = envfloat("FB_WEBHOOK_BACKOFF_MAX_SECONDS", 3600.0)
# The relay (a thread of each Celery worker, one relaying at a time) catches up with missed
# announcements and re-sends lanes whose task was lost this often, and that late.
FB_WEBHOOK_RELAY = envbool("FB_WEBHOOK_RELAY", True)
FB_WEBHOOK_SWEEP_SECONDS = envfloat("FB_WEBHOOK_SWEEP_SECONDS", 2.0)
FB_WEBHOOK_SWEEP_GRACE_SECONDS = envfloat("FB_WEBHOOK_SWEEP_GRACE_SECONDS", 2.0)
# Subscriptions per user, and how long a rotated-out secret still signs by default.
FB_WEBHOOK_MAX_PER_USER = envint("FB_WEBHOOK_MAX_PER_USER", 20)
FB_WEBHOOK_ROTATION_OVERLAP_SECONDS = envint("FB_WEBHOOK_ROTATION_OVERLAP_SECONDS", 24 * 3600)
# Ratings (docs/ratings.md): a thread of each Celery worker folds finished ranked games
# in as their ends are announced, and catches up every FB_RATINGS_SWEEP_SECONDS.
FB_RATINGS_PROJECTOR = envbool("FB_RATINGS_PROJECTOR", True)
FB_RATINGS_SWEEP_SECONDS = envfloat("FB_RATINGS_SWEEP_SECONDS", 5.0)

# --------------------------------------------------------------------------- the rest

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# WhiteNoise serves STATIC_ROOT (after collectstatic) with DEBUG off, and the apps' static
# folders directly with DEBUG on. Compressed copies, no manifest: templates never fail on
# a file that collectstatic has not seen (tests, runserver).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Fixed here from the environment's DEBUG (the test runner turns DEBUG off later): in
# development the apps' folders are served and re-read on change, and a STATIC_ROOT that
# was never collected is not warned about; in production STATIC_ROOT is indexed at start.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Per-user rate of game commands (POST .../commands, /undo, /resign): "N/s", "N/min",
# "N/hour" or "N/day", counted in the default cache (per process unless CACHES names a
# shared one). The per-client rate of the sign-up and sign-in endpoints, the same form, is
# counted in PostgreSQL (api.limits): one count for every web process.
FB_COMMAND_RATE = os.environ.get("FB_COMMAND_RATE", "600/min")
FB_AUTH_RATE = os.environ.get("FB_AUTH_RATE", "60/min")
# Failed sign-ins (docs/api.md, "Sign-in limits"), counted in PostgreSQL over the last
# FB_SIGN_IN_WINDOW seconds per username from one client address (FB_SIGN_IN_FAILURES) and
# per address for any usernames (FB_SIGN_IN_ADDRESS_FAILURES). Never per username alone:
# then anyone could lock a user out by failing on purpose.
FB_SIGN_IN_WINDOW = envint("FB_SIGN_IN_WINDOW", 900)
FB_SIGN_IN_FAILURES = envint("FB_SIGN_IN_FAILURES", 10)
FB_SIGN_IN_ADDRESS_FAILURES = envint("FB_SIGN_IN_ADDRESS_FAILURES", 100)
# Reads (GET) of the API per user (per address when signed out), the event feed aside.
FB_READ_RATE = os.environ.get("FB_READ_RATE", "6000/min")
# The proxies (addresses or networks) whose X-Forwarded-For and X-Forwarded-Proto are
# believed: a request from one of them counts against the address it forwarded for. None by
# default: the headers are dropped and every request counts against its peer address. The
# one place this is decided is api.proxies (no server in front rewrites the peer address).
TRUSTED_PROXIES = envnetworks("TRUSTED_PROXIES")
# The largest request body Django reads (bytes; 413 body_too_large above it), and the
# largest body of a game command: a command is a few hundred bytes, and a refused one is
# logged, so junk is refused before it costs more than its answer.
DATA_UPLOAD_MAX_MEMORY_SIZE = envint("DATA_UPLOAD_MAX_MEMORY_SIZE", 2_621_440)
FB_MAX_COMMAND_BYTES = envint("FB_MAX_COMMAND_BYTES", 16_384)
# Longest long-poll wait of the event feed, and the lifetime and heartbeat of its
# server-sent-events stream, in seconds.
FB_FEED_MAX_WAIT = envint("FB_FEED_MAX_WAIT", 25)
FB_SSE_LIFETIME = envint("FB_SSE_LIFETIME", 60)
FB_SSE_HEARTBEAT = envint("FB_SSE_HEARTBEAT", 15)
# The feed's waiting routes (api.feed): threads that do its short database work, open feed
# connections (long-polls and streams) one user may hold in one process and one process may
# hold in all, and the event-loop lag past which a process sheds streams (see api.feed.limits).
FB_FEED_DB_THREADS = envint("FB_FEED_DB_THREADS", 8)
# Seconds a feed process remembers which user a token is and its access to a game, so a
# long-poll that comes back is answered without a database thread (api/feed/recent.py): a
# revoked token still reopens feeds for up to this long. 0: always sign in afresh.
FB_FEED_RECENT_SECONDS = envint("FB_FEED_RECENT_SECONDS", 30)
# Threads of a web process (fbservice/asgi.py) that serve everything but the feed's waiting
# routes: commands, reads, pages; each keeps its own database connection.
FB_WEB_THREADS = envint("FB_WEB_THREADS", 16)
FB_FEED_MAX_PER_USER = envint("FB_FEED_MAX_PER_USER", 20)
FB_FEED_MAX_CONNECTIONS = envint("FB_FEED_MAX_CONNECTIONS", 10000)
FB_FEED_SHED_LAG_MS = envint("FB_FEED_SHED_LAG_MS", 500)
# Where the feed's latency goes (api/feed/metrics.py): each process writes its figures to
# FB_METRICS_DIR (docker/gunicorn.conf.py makes one its workers share) and GET /metrics adds
# them up, for staff or for a scraper sending `Authorization: Bearer <FB_METRICS_TOKEN>`;
# FB_METRICS_LOG_SECONDS > 0 also logs a summary line that often (per process).
FB_METRICS_DIR = os.environ.get("FB_METRICS_DIR", "")
# The cyclic garbage collector's thresholds in server and worker processes
# (fbservice/startup.py). Python's (700, 10, 10) ran a full collection every few seconds
# under thousands of waiting feeds, each holding its thread's GIL for 0.4 s or more (every
# waiting request's objects live long enough to reach the oldest generation): 50,000
# allocations between young collections and 20 of each between older ones made them rare
# (docs/benchmarks.md, "The live feed at its targets").
FB_GC_THRESHOLDS = tuple(int(x) for x in envlist("FB_GC_THRESHOLDS", "50000,20,20"))
FB_METRICS_TOKEN = envsecret("FB_METRICS_TOKEN")
FB_METRICS_LOG_SECONDS = envint("FB_METRICS_LOG_SECONDS", 0)
# Benchmark-only endpoints (POST /api/v1/bench/bare, see docs/benchmarks.md): never in
# production. Off by default; `python -m bench.api_load` turns it on for its own server.
FB_BENCH_ENDPOINTS = envbool("FB_BENCH_ENDPOINTS", False)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an unauthenticated request then gets 401 with WWW-Authenticate.
        "api.auth.TokenAuthentication",  # "Token <key>", or "Bearer <key>" as generators send
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONParser"],
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_RATES": {
        "commands": FB_COMMAND_RATE,
        "auth": FB_AUTH_RATE,
        "reads": FB_READ_RATE,
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "fbservice API",
    "DESCRIPTION": "Event-sourced server for turn-based card games. See docs/api.md.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "ErrorCodeEnum": "api.errors.ALL_CODES_CHOICES",
        "TableStatusEnum": ["open", "started", "finished"],
        "HealthStatusEnum": ["ok", "degraded"],
        "RulingKindEnum": ["note", "award", "void"],
        "KindEnum": "api.serializers.BOT_KINDS",  # the bots (a name generated clients use)
        "AnnotationRoleEnum": ["staff", "player"],
        "TableModeEnum": ["casual", "ranked", "sandbox"],
        "AuditOriginEnum": ["timeout", "standing"],
        "TournamentStatusEnum": ["registering", "round_running", "between_rounds", "finished"],
        "FlagStatusEnum": ["open", "closed"],
    },
    "ENUM_GENERATE_CHOICE_DESCRIPTION": False,
    # 3.1: nullable fields as type lists / oneOf with null, valid for strict validators.
    "OAS_VERSION": "3.1.0",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.postprocess",  # operation ids, errors per operation, auth, links
    ],
}

if not DEBUG:
    # Only ever present when a trusted proxy sent it: api.proxies drops it from anyone else.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        # replaces Django's own console handler, which would print every line twice
        "django": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}
