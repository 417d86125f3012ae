"""Settings come from the environment; a bad value stops the site with a clear error."""

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db.utils import ConnectionHandler

from skyjo_site import env
from skyjo_site.tests.settings_helpers import PRODUCTION, ROOT, _manage


def test_embedded_default(load):
    s = load()
    assert s["DEBUG"] is True
    assert s["SECRET_KEY"] == s["DEV_SECRET_KEY"]
    assert s["DATABASES"]["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert s["DATABASES"]["default"]["NAME"] == ROOT / "db.sqlite3"
    assert s["DATABASES"]["default"]["TEST"]["NAME"].endswith(".sqlite3")
    assert (
        s["CHANNEL_LAYERS"]["default"]["BACKEND"] == "skyjo_site.memory_layer.InMemoryChannelLayer"
    )
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert s["SKYJO_BOT_DELAY"] == 0.8
    assert s["SKYJO_DISCONNECT_GRACE"] == 60
    assert "127.0.0.1" in s["ALLOWED_HOSTS"]


@pytest.mark.parametrize(
    ("name", "value", "default"),
    [("SKYJO_MAX_TABLES", "7", 5), ("SKYJO_WS_HEARTBEAT", "9", 5), ("SKYJO_AUTOPLAY", "0", True)],
)
def test_the_settings_tests_read_no_variable_of_the_shell(load, monkeypatch, name, value, default):
    """``load`` runs settings.py with exactly the variables a test gives, whatever the shell that
    runs the tests has set (it cleared a hand-kept list, which lacked these)."""
    monkeypatch.setenv(name, value)
    assert load()[name] == default


@pytest.mark.parametrize(
    ("variables", "synchronous"), [({}, 2), ({"SKYJO_SQLITE_SYNCHRONOUS": "normal"}, 1)]
)
def test_the_embedded_database_writes_a_commit_to_disk_before_answering(
    load, tmp_path, variables, synchronous, django_db_blocker
):
    """FULL (2) by default: an acknowledged move survives a power cut, not only a crash of the
    process. The connection is made with the settings' own options."""
    database = {**load(**variables)["DATABASES"]["default"], "NAME": tmp_path / "db.sqlite3"}
    wrapper = ConnectionHandler({"default": database})["default"]  # Django fills in defaults
    try:
        with django_db_blocker.unblock(), wrapper.cursor() as cursor:
            cursor.execute("PRAGMA synchronous")
            assert cursor.fetchone()[0] == synchronous
            cursor.execute("PRAGMA journal_mode")
            assert cursor.fetchone()[0] == "wal"
    finally:
        wrapper.close()


def test_production(load):
    s = load(**PRODUCTION)
    assert s["DEBUG"] is False
    assert s["ALLOWED_HOSTS"] == ["skyjo.example.org"]
    assert s["CSRF_TRUSTED_ORIGINS"] == ["https://skyjo.example.org"]
    assert s["SESSION_COOKIE_SECURE"] and s["CSRF_COOKIE_SECURE"] and s["SECURE_SSL_REDIRECT"]


def test_production_refuses_the_development_secret(load):
    variables = {**PRODUCTION}
    del variables["SECRET_KEY"]
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is not set"):
        load(**variables)


def test_production_needs_allowed_hosts(load):
    variables = {**PRODUCTION}
    del variables["ALLOWED_HOSTS"]
    with pytest.raises(ImproperlyConfigured, match="ALLOWED_HOSTS is not set"):
        load(**variables)


def test_postgres_and_redis(load):
    s = load(
        DATABASE_URL="postgres://skyjo:pw@db.internal:5433/skyjo",
        REDIS_URL="redis://cache.internal:6379/1?max_connections=500",
    )
    db = s["DATABASES"]["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["HOST"], db["PORT"]) == (
        "skyjo",
        "skyjo",
        "db.internal",
        5433,
    )
    assert db["TEST"]["NAME"].startswith("test_skyjo_")
    layer = s["CHANNEL_LAYERS"]["default"]
    assert layer["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert layer["CONFIG"]["hosts"][0]["address"].startswith("redis://cache.internal:6379/1")


def test_postgresql_connections_are_kept_and_checked_before_reuse(load):
    url = "postgres://skyjo:pw@db.internal:5433/skyjo"
    db = load(DATABASE_URL=url)["DATABASES"]["default"]
    assert (db["CONN_MAX_AGE"], db["CONN_HEALTH_CHECKS"]) == (60, True)
    db = load(DATABASE_URL=url, DATABASE_CONN_MAX_AGE="0")["DATABASES"]["default"]
    assert (db["CONN_MAX_AGE"], db["CONN_HEALTH_CHECKS"]) == (0, False)


def test_postgresql_binds_on_the_server_and_prepares_unless_told_not_to(load):
    url = "postgres://skyjo:pw@db.internal:5433/skyjo"
    options = load(DATABASE_URL=url)["DATABASES"]["default"]["OPTIONS"]
    assert options == {"server_side_binding": True, "prepare_threshold": 5}
    db = load(DATABASE_URL=url, DATABASE_PREPARE_THRESHOLD="0")["DATABASES"]["default"]
    assert db["OPTIONS"] == {"server_side_binding": True, "prepare_threshold": None}


def test_redis_pool_capacity_and_layer_kind(load):
    default = load(REDIS_URL="redis://cache.internal:6379/1")["CHANNEL_LAYERS"]["default"]
    assert default["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    core = load(REDIS_URL="redis://cache.internal:6379/1", SKYJO_CHANNEL_LAYER="core")[
        "CHANNEL_LAYERS"
    ]["default"]
    assert core["BACKEND"] == "channels_redis.core.RedisChannelLayer"
    assert core["CONFIG"]["hosts"] == [
        {"address": "redis://cache.internal:6379/1", "max_connections": 1000, "socket_timeout": 30}
    ]
    assert (core["CONFIG"]["capacity"], core["CONFIG"]["expiry"]) == (1000, 60)
    s = load(
        REDIS_URL="redis://cache.internal:6379/1",
        REDIS_MAX_CONNECTIONS="5000",
        CHANNEL_LAYER_CAPACITY="300",
        SKYJO_CHANNEL_LAYER="PubSub",
    )
    pubsub = s["CHANNEL_LAYERS"]["default"]
    assert s["SKYJO_CHANNEL_LAYER"] == "pubsub"
    assert pubsub["BACKEND"] == "channels_redis.pubsub.RedisPubSubChannelLayer"
    assert pubsub["CONFIG"] == {
        "hosts": [
            {
                "address": "redis://cache.internal:6379/1",
                "max_connections": 5000,
                "socket_timeout": 30,
            }
        ]
    }


def test_the_pool_size_on_the_url_reaches_redis_py():
    from redis.asyncio import ConnectionPool

    from skyjo_site.layers import redis_channel_layer

    host = redis_channel_layer("redis://127.0.0.1:6379/0?max_connections=321")["CONFIG"]
    host = dict(host["hosts"][0])
    assert ConnectionPool.from_url(host.pop("address"), **host).max_connections == 321
    host = redis_channel_layer("redis://127.0.0.1:6379/0", max_connections=654)["CONFIG"]
    host = dict(host["hosts"][0])
    assert ConnectionPool.from_url(host.pop("address"), **host).max_connections == 654


def test_smtp_email(load):
    s = load(
        EMAIL_HOST="smtp.example.org", EMAIL_PORT="465", EMAIL_USE_TLS="no", EMAIL_USE_SSL="yes"
    )
    assert s["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert s["EMAIL_PORT"] == 465
    assert s["EMAIL_USE_SSL"] is True


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"DEBUG": "maybe"}, "DEBUG='maybe' is invalid"),
        ({"DATABASE_URL": "mysql://x@y/z"}, "DATABASE_URL='mysql://x@y/z' is invalid"),
        ({"REDIS_URL": "127.0.0.1:6379"}, "REDIS_URL='127.0.0.1:6379' is invalid"),
        (
            {"REDIS_URL": "redis://r:6379/0?max_connections=many"},
            "max_connections must be a whole number",
        ),
        ({"REDIS_URL": "redis://r:6379/0", "REDIS_MAX_CONNECTIONS": "0"}, "REDIS_MAX_CONNECTIONS"),
        ({"SKYJO_CHANNEL_LAYER": "rabbit"}, "SKYJO_CHANNEL_LAYER='rabbit' is invalid"),
        ({"CSRF_TRUSTED_ORIGINS": "skyjo.example.org"}, "CSRF_TRUSTED_ORIGINS="),
        ({"EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "smtp"}, "EMAIL_PORT='smtp' is invalid"),
        (
            {"EMAIL_HOST": "smtp.example.org", "EMAIL_USE_TLS": "yes", "EMAIL_USE_SSL": "yes"},
            "cannot both be true",
        ),
        ({"SKYJO_BOT_DELAY": "fast"}, "SKYJO_BOT_DELAY='fast' is invalid"),
        ({"SKYJO_BOT_DELAY": "-1"}, "SKYJO_BOT_DELAY='-1' is invalid"),
        ({"SKYJO_DISCONNECT_GRACE": "1.5"}, "SKYJO_DISCONNECT_GRACE='1.5' is invalid"),
        ({"AXES_FAILURE_LIMIT": "0"}, "AXES_FAILURE_LIMIT='0' is invalid"),
        ({"SECURE_HSTS_SECONDS": "a year"}, "SECURE_HSTS_SECONDS='a year' is invalid"),
        ({"SKYJO_RATELIMIT": "sometimes"}, "SKYJO_RATELIMIT='sometimes' is invalid"),
        ({"SKYJO_RATELIMIT_REGISTER": "5"}, "SKYJO_RATELIMIT_REGISTER='5' is invalid"),
        ({"SKYJO_RATELIMIT_CREATE": "0/h"}, "SKYJO_RATELIMIT_CREATE='0/h' is invalid"),
        ({"SKYJO_RATELIMIT_JOIN": "5/w"}, "SKYJO_RATELIMIT_JOIN='5/w' is invalid"),
        ({"SKYJO_RATELIMIT_WRITE": "5/0m"}, "SKYJO_RATELIMIT_WRITE='5/0m' is invalid"),
        ({"SKYJO_RATELIMIT_WRITE": "5 per hour"}, "expected a rate such as 5/h"),
        ({"SKYJO_WS_RATE": "0"}, "SKYJO_WS_RATE='0' is invalid"),
        ({"SKYJO_WS_RATE": "fast"}, "SKYJO_WS_RATE='fast' is invalid"),
        ({"SKYJO_WS_BURST": "0"}, "SKYJO_WS_BURST='0' is invalid"),
        ({"SKYJO_WS_MAX_DROPPED": "1.5"}, "SKYJO_WS_MAX_DROPPED='1.5' is invalid"),
        ({"SKYJO_TRUSTED_PROXIES": "-1"}, "SKYJO_TRUSTED_PROXIES='-1' is invalid"),
        ({"SKYJO_LOGIN_BRAKE": "50"}, "SKYJO_LOGIN_BRAKE='50' is invalid"),
        ({"SKYJO_SQLITE_SYNCHRONOUS": "off"}, "SKYJO_SQLITE_SYNCHRONOUS='off' is invalid"),
    ],
)
def test_a_bad_value_is_a_clear_error(load, variables, message):
    with pytest.raises(ImproperlyConfigured, match=message.replace("?", r"\?")):
        load(**variables)


def test_env_helpers(monkeypatch):
    monkeypatch.setenv("X_BOOL", "ON")
    monkeypatch.setenv("X_LIST", " a, b ,,c ")
    monkeypatch.setenv("X_EMPTY", "  ")
    assert env.env_bool("X_BOOL", False) is True
    assert env.env_list("X_LIST", []) == ["a", "b", "c"]
    assert env.env_str("X_EMPTY", "default") == "default"
    assert env.env_int("X_MISSING", 7) == 7
    monkeypatch.setenv("X_FLOAT", "nan")
    with pytest.raises(ImproperlyConfigured, match="X_FLOAT='nan'"):
        env.env_float("X_FLOAT", 1.0)


def test_check_deploy_passes_with_production_settings():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        **PRODUCTION,
        SECURE_HSTS_INCLUDE_SUBDOMAINS="true",
        SECURE_HSTS_PRELOAD="true",
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues" in result.stdout


def test_a_bad_value_stops_manage_py_with_its_name():
    result = _manage("check", DEBUG="yes please")
    assert result.returncode != 0
    assert "DEBUG='yes please' is invalid" in result.stderr


LOG_A_WARNING = "import logging; logging.getLogger('django.security.csrf').warning('a warning')"


@pytest.mark.parametrize("variables", [{}, PRODUCTION], ids=["embedded-default", "production"])
def test_a_warning_of_django_is_written_to_the_log_once(variables):
    """Django's own console handler (on with DEBUG) and the site's root handler both printed
    every line of a django.* logger, so the embedded default's log said everything twice."""
    result = _manage("shell", "-v0", "-c", LOG_A_WARNING, **variables)
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("a warning") == 1, result.stderr


def test_web_push_is_off_without_keys_and_on_with_both(load):
    from notifications.push import make_keys

    s = load()
    assert (s["SKYJO_VAPID_PUBLIC_KEY"], s["SKYJO_VAPID_PRIVATE_KEY"]) == ("", "")
    assert s["SKYJO_PUSH_INSECURE_ENDPOINTS"] is True  # DEBUG's
    public, private = make_keys()
    s = load(SKYJO_VAPID_PUBLIC_KEY=public, SKYJO_VAPID_PRIVATE_KEY=private, **PRODUCTION)
    assert (s["SKYJO_VAPID_PUBLIC_KEY"], s["SKYJO_VAPID_PRIVATE_KEY"]) == (public, private)
    assert s["SKYJO_PUSH_INSECURE_ENDPOINTS"] is False


@pytest.mark.parametrize(
    ("variables", "says"),
    [
        ({"SKYJO_VAPID_PUBLIC_KEY": "public"}, "set together"),
        ({"SKYJO_VAPID_PUBLIC_KEY": "a" * 87, "SKYJO_VAPID_PRIVATE_KEY": "b" * 40}, "32 bytes"),
        ({"SKYJO_VAPID_PUBLIC_KEY": "a" * 20, "SKYJO_VAPID_PRIVATE_KEY": "b" * 43}, "65 bytes"),
        ({"SKYJO_VAPID_SUBJECT": "admin@example.org"}, "mailto:ADDRESS"),
        ({"SKYJO_VAPID_SUBJECT": "https://example.org/contact"}, "https://HOST"),
    ],
)
def test_bad_vapid_settings_stop_the_site_without_showing_the_key(load, variables, says):
    with pytest.raises(ImproperlyConfigured, match=says) as error:
        load(**variables)
    assert "b" * 40 not in str(error.value)
