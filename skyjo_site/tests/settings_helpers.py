"""What the settings tests share: where settings.py is, the variables it reads, and runners."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "skyjo_site" / "settings.py"
VARIABLES = [
    "SECRET_KEY",
    "DEBUG",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "DATABASE_CONN_MAX_AGE",
    "DATABASE_PREPARE_THRESHOLD",
    "REDIS_URL",
    "REDIS_MAX_CONNECTIONS",
    "CHANNEL_LAYER_CAPACITY",
    "SKYJO_CHANNEL_LAYER",
    "SKYJO_SQLITE_SYNCHRONOUS",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_HOST_USER",
    "EMAIL_HOST_PASSWORD",
    "EMAIL_USE_TLS",
    "EMAIL_USE_SSL",
    "DEFAULT_FROM_EMAIL",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "AXES_FAILURE_LIMIT",
    "AXES_COOLOFF_MINUTES",
    "SKYJO_BOT_DELAY",
    "SKYJO_DISCONNECT_GRACE",
    "SKYJO_TEST_DB_NAME",
    "TIME_ZONE",
    "SKYJO_RATELIMIT",
    "SKYJO_RATELIMIT_REGISTER",
    "SKYJO_RATELIMIT_CREATE",
    "SKYJO_RATELIMIT_JOIN",
    "SKYJO_RATELIMIT_WRITE",
    "SKYJO_WS_RATE",
    "SKYJO_WS_BURST",
    "SKYJO_WS_MAX_DROPPED",
    "SKYJO_MAX_PENDING_FRAMES",
    "SKYJO_SHED_AFTER",
    "SKYJO_DB_THREADS",
    "CACHE_REDIS_URL",
    "CACHE_KEY_PREFIX",
    "SKYJO_TRUSTED_PROXIES",
    "SKYJO_LOGIN_BRAKE",
    "SKYJO_CSP_REPORT_ONLY",
]
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "skyjo.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://skyjo.example.org",
}


def _manage(*args, **variables):
    environment = {k: v for k, v in os.environ.items() if k not in VARIABLES}
    environment.update(variables)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
