"""Settings from the environment (docs/configuration.md). Unset, the site runs in development:
DEBUG, SQLite, the in-memory layer, console e-mail; DEBUG=false requires a secret and hosts."""

import base64
import os
import re
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from skyjo_site.env import (
    env_bool,
    env_choice,
    env_float,
    env_int,
    env_list,
    env_rate,
    env_str,
    invalid,
)
from skyjo_site.layers import redis_channel_layer

BASE_DIR = Path(__file__).resolve().parent.parent

DEV_SECRET_KEY = "django-insecure-skyjo-development-key-never-use-in-production"

DEBUG = env_bool("DEBUG", True)

SECRET_KEY = env_str("SECRET_KEY", DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is not set: with DEBUG=false the development secret key is refused. "
        "Set SECRET_KEY to a long random string, for instance the output of "
        "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`."
    )

_ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [])
if not DEBUG and not _ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS is not set: with DEBUG=false list the site's host names, "
        "comma-separated, for instance ALLOWED_HOSTS=skyjo.example.org."
    )
ALLOWED_HOSTS = _ALLOWED_HOSTS or ["127.0.0.1", "localhost", "[::1]"]
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
for _origin in CSRF_TRUSTED_ORIGINS:
    if not _origin.startswith(("http://", "https://")):
        _value = os.environ["CSRF_TRUSTED_ORIGINS"]
        _expected = f"{_origin!r} must start with https:// or http://"
        raise invalid("CSRF_TRUSTED_ORIGINS", _value, _expected)

INSTALLED_APPS = [
    "daphne",
    "skyjo_site.apps.AdminConfig",  # django.contrib.admin, its site: skyjo_site/admin_site.py
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "axes",
    "django_ratelimit",
    "accounts",
    "games",
    "chat",
    "moderation",
    "analysis",
    "stats",
    "tournaments",
    "puzzles",
    "notifications",
    "web",
]

MIDDLEWARE = [
    # First: every later reader of REMOTE_ADDR (rate limits, django-axes) sees the client's.
    "skyjo_site.client_address.ClientAddressMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "skyjo_site.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Before anything writes a date: a ban's end is worded by the next one.
    "web.timezones.TimeZoneMiddleware",
    "web.accounts.middleware.PlayerMiddleware",
    "skyjo_site.nul_bytes.NulBytesMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "web.accounts.middleware.HtmxLoginRedirectMiddleware",
    "skyjo_site.errorpages.NotFoundPageMiddleware",
    # After htmx: the 429 answer depends on request.htmx.
    "django_ratelimit.middleware.RatelimitMiddleware",
    "web.ratelimit.WriteRateLimitMiddleware",
    # Last, as django-axes asks.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "skyjo_site.urls"
ASGI_APPLICATION = "skyjo_site.asgi.application"

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
                "django.template.context_processors.i18n",
            ],
            "builtins": ["web.templatetags.names", "web.templatetags.when"],
        },
    }
]

# Database: SQLite next to manage.py unless DATABASE_URL (PostgreSQL) is set.
DATABASE_URL = env_str("DATABASE_URL")
if DATABASE_URL:
    if not DATABASE_URL.startswith(("postgres://", "postgresql://")):
        raise invalid("DATABASE_URL", DATABASE_URL, "expected postgres://user:password@host/db")
    _conn_max_age = env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0)
    try:
        _db = dj_database_url.parse(
            DATABASE_URL, conn_max_age=_conn_max_age, conn_health_checks=_conn_max_age > 0
        )
    except ValueError as exc:
        raise invalid("DATABASE_URL", DATABASE_URL, str(exc)) from None
    # Server-side binding and prepared statements (docs/performance.md).
    _prepare_after = env_int("DATABASE_PREPARE_THRESHOLD", 5, minimum=0)
    _db.setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=_prepare_after or None
    )
    _db["TEST"] = {"NAME": env_str("SKYJO_TEST_DB_NAME", f"test_skyjo_{os.getpid()}")}
else:
    _db = {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": BASE_DIR / "db.sqlite3",
        # IMMEDIATE: no "database is locked" upgrading a read lock; synchronous: deployment.md.
        "CONN_MAX_AGE": env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0),
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous="
            + env_choice("SKYJO_SQLITE_SYNCHRONOUS", "full", ["full", "normal"]),
        },
        # A file, not memory: the Daphne server that browser tests fork must see it.
        "TEST": {
            "NAME": env_str(
                "SKYJO_TEST_DB_NAME",
                str(Path(tempfile.gettempdir()) / f"skyjo-test-{os.getpid()}.sqlite3"),
            )
        },
    }
DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channel layer and rate-limit counters: in-memory (one process only) unless REDIS_URL is set.
REDIS_URL = env_str("REDIS_URL")
SKYJO_CHANNEL_LAYER = env_choice("SKYJO_CHANNEL_LAYER", "pubsub", ["pubsub", "core"])
if REDIS_URL:
    if not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
        raise invalid("REDIS_URL", REDIS_URL, "expected a URL such as redis://127.0.0.1:6379/0")
    CHANNEL_LAYERS = {
        "default": redis_channel_layer(
            REDIS_URL,
            kind=SKYJO_CHANNEL_LAYER,
            max_connections=env_int("REDIS_MAX_CONNECTIONS", 1000, minimum=1),
            capacity=env_int("CHANNEL_LAYER_CAPACITY", 1000, minimum=1),
        )
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": env_str("CACHE_REDIS_URL", REDIS_URL),
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "skyjo"),
        }
    }
    # django-ratelimit does not know Django's RedisCache; its counters use atomic INCR.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "skyjo_site.memory_layer.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    # LocMemCache is not shared (E003): right for the one-process default.
    SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]
if not DATABASE_URL:
    # The statistics' covering indexes (INCLUDE) are plain indexes on SQLite.
    SILENCED_SYSTEM_CHECKS.append("models.W040")

# Behind N proxies that each append X-Forwarded-For: N; 0 trusts no header.
SKYJO_TRUSTED_PROXIES = env_int("SKYJO_TRUSTED_PROXIES", 0, minimum=0)

# Rate limits (docs/configuration.md); SKYJO_RATELIMIT=false turns them all off.
RATELIMIT_ENABLE = env_bool("SKYJO_RATELIMIT", True)
RATELIMIT_VIEW = "web.ratelimit.ratelimited"
RATELIMIT_CACHE_PREFIX = "rl:"
SKYJO_RATELIMIT_REGISTER = env_rate("SKYJO_RATELIMIT_REGISTER", "5/h")  # accounts made, per address
SKYJO_RATELIMIT_REGISTER_TRIES = env_rate("SKYJO_RATELIMIT_REGISTER_TRIES", "30/h")  # forms sent
SKYJO_RATELIMIT_CREATE = env_rate("SKYJO_RATELIMIT_CREATE", "20/h")  # per user
SKYJO_RATELIMIT_JOIN = env_rate("SKYJO_RATELIMIT_JOIN", "120/h")  # per user
SKYJO_RATELIMIT_WRITE = env_rate("SKYJO_RATELIMIT_WRITE", "60/m")  # per user or address
SKYJO_RATELIMIT_EMAIL = env_rate("SKYJO_RATELIMIT_EMAIL", "5/h")  # changes of one's e-mail
SKYJO_RATELIMIT_RESET = env_rate("SKYJO_RATELIMIT_RESET", "10/h")  # reset e-mails per address
SKYJO_RATELIMIT_RESET_EMAIL = env_rate("SKYJO_RATELIMIT_RESET_EMAIL", "3/h")  # per address typed
SKYJO_RATELIMIT_PASSWORD = env_rate("SKYJO_RATELIMIT_PASSWORD", "10/h")  # changes tried, per user
SKYJO_RATELIMIT_REPLAY = env_rate("SKYJO_RATELIMIT_REPLAY", "60/h")  # move lists rendered, per user
# Open lobbies and games in play one user may sit at at once; 0: no cap.
SKYJO_MAX_TABLES = env_int("SKYJO_MAX_TABLES", 5, minimum=0)
# Correspondence tables (docs/correspondence.md) have a limit of their own, and vacations.
SKYJO_MAX_CORRESPONDENCE_TABLES = env_int("SKYJO_MAX_CORRESPONDENCE_TABLES", 30, minimum=0)
SKYJO_VACATION_DAYS = env_int("SKYJO_VACATION_DAYS", 21, minimum=0)  # per calendar year
# Chat messages per user: at most SKYJO_CHAT_RATE in SKYJO_CHAT_PERIOD seconds.
SKYJO_CHAT_RATE = env_int("SKYJO_CHAT_RATE", 5, minimum=1)
SKYJO_CHAT_PERIOD = env_int("SKYJO_CHAT_PERIOD", 10, minimum=1)
SKYJO_WS_RATE = env_float("SKYJO_WS_RATE", 10, minimum=0.1)  # frames per second
SKYJO_WS_BURST = env_int("SKYJO_WS_BURST", 20, minimum=1)
SKYJO_WS_MAX_DROPPED = env_int("SKYJO_WS_MAX_DROPPED", 200, minimum=1)
# Open websockets (game, lobby, lobby list together) per user and per address; 0: no cap.
SKYJO_WS_MAX_PER_USER = env_int("SKYJO_WS_MAX_PER_USER", 20, minimum=0)
SKYJO_WS_MAX_PER_ADDRESS = env_int("SKYJO_WS_MAX_PER_ADDRESS", 60, minimum=0)
# Load shedding of game frames (web.sockets.shedding).
SKYJO_SHED_AFTER = env_float("SKYJO_SHED_AFTER", 0.5, minimum=0.01)
SKYJO_MAX_PENDING_FRAMES = env_int("SKYJO_MAX_PENDING_FRAMES", 100, minimum=1)
# Threads of the sockets' database calls (core.db); SQLite writes one at a time.
SKYJO_DB_THREADS = env_int("SKYJO_DB_THREADS", 4 if DATABASE_URL else 1, minimum=1)

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "web.accounts.lockout.BrakeBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Failed logins: axes locks a (username, address) pair; the brake counts an address's failures.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "web.accounts.lockout.lockout_response"
AXES_USERNAME_CALLABLE = "web.accounts.lockout.axes_username"
AXES_VERBOSE = False
SKYJO_LOGIN_BRAKE = env_rate("SKYJO_LOGIN_BRAKE", "50/h")
AXES_CLIENT_IP_CALLABLE = "skyjo_site.client_address.request_address"

# E-mail: printed to the console unless EMAIL_HOST is set.
EMAIL_HOST = env_str("EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
    if EMAIL_USE_TLS and EMAIL_USE_SSL:
        raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be true.")
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Skyjo Online <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("nb", _("Norwegian Bokmål")),
    ("sv", _("Swedish")),
    ("de", _("German")),
    ("nl", _("Dutch")),
    ("fr", _("French")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# Static files, served by the app itself (whitenoise).
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# Security. Behind a TLS-terminating proxy set SECURE_PROXY_SSL_HEADER=true.
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
# HSTS for a year in production; subdomains and preload only if set (docs/configuration.md).
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if not SECURE_HSTS_INCLUDE_SUBDOMAINS:
    SILENCED_SYSTEM_CHECKS.append("security.W005")
if not SECURE_HSTS_PRELOAD:
    SILENCED_SYSTEM_CHECKS.append("security.W021")
# Content-Security-Policy (skyjo_site/csp.py); report-only to try a change of policy.
SKYJO_CSP_REPORT_ONLY = env_bool("SKYJO_CSP_REPORT_ONLY", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Logging: errors behind a 500 reach the console even with DEBUG=False.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
    "loggers": {
        "django": {"level": "INFO"},
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
        "django.channels.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
}

SKYJO_BOT_DELAY = env_float("SKYJO_BOT_DELAY", 0.8, minimum=0)
SKYJO_DISCONNECT_GRACE = env_int("SKYJO_DISCONNECT_GRACE", 60, minimum=0)
# Every server process runs the bot runner (web.runner) unless this is false.
SKYJO_AUTOPLAY = env_bool("SKYJO_AUTOPLAY", True)
# Post-game analysis in a low-priority worker process; false: in the bot runner's thread.
SKYJO_ANALYSIS_WORKER = env_bool("SKYJO_ANALYSIS_WORKER", True)
# The bot runner makes puzzles of analysed public games (puzzles.background); false: only
# `manage.py make_puzzles` does.
SKYJO_PUZZLES_BACKGROUND = env_bool("SKYJO_PUZZLES_BACKGROUND", True)
# E-mails of correspondence games (docs/notifications.md): queued with the game's steps, sent
# by the bot runner; false: none queued, none sent.
SKYJO_NOTIFICATIONS = env_bool("SKYJO_NOTIFICATIONS", True)
# The site's address as e-mails link to it (they have no request to take it from).
SKYJO_SITE_URL = env_str("SKYJO_SITE_URL", "http://localhost:8000")
# Web Push (docs/notifications.md, "Web Push"): offered only when both VAPID keys are set, as
# `manage.py make_vapid_keys` prints them; the subject is a contact for the push services
# (mailto: or https://host; unset: mailto: and DEFAULT_FROM_EMAIL's address).
SKYJO_VAPID_PUBLIC_KEY = env_str("SKYJO_VAPID_PUBLIC_KEY", "")
SKYJO_VAPID_PRIVATE_KEY = env_str("SKYJO_VAPID_PRIVATE_KEY", "")
if bool(SKYJO_VAPID_PUBLIC_KEY) != bool(SKYJO_VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured(
        "SKYJO_VAPID_PUBLIC_KEY and SKYJO_VAPID_PRIVATE_KEY are set together or not at all."
    )
for _name, _size in (("SKYJO_VAPID_PUBLIC_KEY", 65), ("SKYJO_VAPID_PRIVATE_KEY", 32)):
    _value = os.environ.get(_name, "").strip()
    _padded = _value + "=" * (-len(_value) % 4)
    if _value and not (
        re.fullmatch(r"[A-Za-z0-9_-]+=*", _value)
        and len(base64.urlsafe_b64decode(_padded)) == _size
    ):  # the value is not shown: one of them is a secret
        raise ImproperlyConfigured(
            f"{_name} is invalid: expected {_size} bytes in base64url (manage.py make_vapid_keys)."
        )
SKYJO_VAPID_SUBJECT = env_str("SKYJO_VAPID_SUBJECT", "")
if SKYJO_VAPID_SUBJECT and not re.fullmatch(r"mailto:\S+@\S+|https://[^/\s]+", SKYJO_VAPID_SUBJECT):
    raise invalid(
        "SKYJO_VAPID_SUBJECT", SKYJO_VAPID_SUBJECT, "expected mailto:ADDRESS or https://HOST"
    )
# Push endpoints over http or at a local host (an IP address, one label): the tests' and DEBUG's.
SKYJO_PUSH_INSECURE_ENDPOINTS = DEBUG
SKYJO_AUTOPLAY_INTERVAL = env_float("SKYJO_AUTOPLAY_INTERVAL", 0.2, minimum=0.01)
SKYJO_HEARTBEAT = env_float("SKYJO_HEARTBEAT", 15, minimum=1)
SKYJO_WS_HEARTBEAT = env_float("SKYJO_WS_HEARTBEAT", 5, minimum=0.5)
