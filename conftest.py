"""Fixtures shared by every test: users ``alice``, ``bob``, ``charlie`` (password ``PASSWORD``),
``moderator`` and ``staff``; ``redis_url``, ``redis_channel_layer``, ``redis_everywhere``;
``daphne_server`` (a live Daphne on the committed test database); Playwright on the system
Chromium. Every test gets its own cache, caches and channel layers, MD5 passwords, no bot
runner, the analysis in the runner's thread and no heartbeat frames.

Log a client in with ``client.force_login(alice)``: ``client.login()`` fails under django-axes.
"""

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

PASSWORD = "correct-horse-42"
ROOT = Path(__file__).resolve().parent
SCREENSHOT_DIR = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = os.environ.get("SKYJO_CHROMIUM", "/usr/bin/chromium")


def pytest_configure(config):
    """On PostgreSQL, connections are not kept (here and in forked servers): a kept one would
    hold the test database the run is about to drop."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if "postgresql" in database["ENGINE"] and "DATABASE_CONN_MAX_AGE" not in os.environ:
        os.environ["DATABASE_CONN_MAX_AGE"] = "0"
        database["CONN_MAX_AGE"], database["CONN_HEALTH_CHECKS"] = 0, False


def _make_user(django_user_model, username, **fields):
    email = f"{username}@example.com"
    return django_user_model.objects.create_user(username, email, PASSWORD, **fields)


@pytest.fixture
def alice(db, django_user_model):
    return _make_user(django_user_model, "alice")


@pytest.fixture
def bob(db, django_user_model):
    return _make_user(django_user_model, "bob")


@pytest.fixture
def charlie(db, django_user_model):
    return _make_user(django_user_model, "charlie")


def _make_moderator(django_user_model, username):
    """In the Moderators group (made anew: a transactional flush empties it), staff."""
    from core.access import sync_group

    user = _make_user(django_user_model, username, is_staff=True)
    user.groups.add(sync_group())
    return django_user_model.objects.get(pk=user.pk)  # no cached permissions


@pytest.fixture
def moderator(db, django_user_model):
    return _make_moderator(django_user_model, "mod")


@pytest.fixture
def staff(db, django_user_model):
    """``is_staff`` alone: no group, no permission."""
    return _make_user(django_user_model, "staff", is_staff=True)


# MD5 first: PBKDF2 costs seconds per user on a loaded machine; it stays to check stored hashes.
FAST_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]


@pytest.fixture(autouse=True)
def _test_settings(settings, request):
    """Fast hashing; bot turns and analysis run only where a test calls them; no heartbeat
    frame among those a test reads; a fresh in-memory cache (no rate-limit count leaks), empty
    process caches (core.caches) and channel layers of its own (channels_redis keeps state per
    event loop); no language left active for the next test."""
    from channels.layers import channel_layers
    from django.core.cache import cache
    from django.utils import translation

    from core import caches

    settings.PASSWORD_HASHERS = FAST_HASHERS
    settings.SKYJO_AUTOPLAY = False
    settings.SKYJO_ANALYSIS_WORKER = False
    settings.SKYJO_PUZZLES_BACKGROUND = False
    settings.SKYJO_NOTIFICATIONS = False
    settings.SKYJO_WS_HEARTBEAT = 3600
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-{os.getpid()}-{request.node.nodeid}",
        }
    }
    cache.clear()
    caches.clear_all()
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()
    translation.deactivate()


@pytest.fixture(autouse=True)
def _allow_orm_in_browser_tests(request, monkeypatch):
    """Playwright's sync API runs an event loop in the test's thread: e2e tests may use the ORM
    all the same, and publish from another thread (async_to_sync refuses a running loop)."""
    if not request.node.get_closest_marker("e2e"):
        return
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from games import publish

    send = publish._send

    def send_from_a_thread(group, message):
        with ThreadPoolExecutor(1) as thread:
            thread.submit(send, group, message).result()

    monkeypatch.setattr(publish, "_send", send_from_a_thread)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """A Redis URL: ``REDIS_URL`` when set, else a ``redis-server`` started for this run."""
    import redis

    from benchmarks import servers

    if url := os.environ.get("REDIS_URL"):
        try:
            redis.Redis.from_url(url, socket_timeout=1).ping()
        except redis.exceptions.RedisError:
            pytest.fail(f"REDIS_URL={url} is set but no Redis answers there.")
    url, _cpu, stop = servers.redis_server(url or "private", tmp_path_factory.mktemp("redis"))
    yield url
    stop()


@pytest.fixture
def redis_channel_layer(settings, redis_url):
    """Use channels_redis on ``redis_url`` for this test; returns the layer settings."""
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [redis_url], "capacity": 1000, "expiry": 60},
        }
    }
    channel_layers.backends.clear()
    yield settings.CHANNEL_LAYERS
    channel_layers.backends.clear()


@pytest.fixture
def redis_everywhere(redis_channel_layer, settings):
    """``redis_channel_layer`` here and in the Daphne servers a test forks."""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    return redis_channel_layer


def _get_application():
    from skyjo_site.asgi import application

    return application


def live_server_settings():
    """In a forked test server: the test database, the bot runner with short pauses, no rate
    limits."""
    from django.conf import settings
    from django.db import connections

    from web import runner

    test_name = settings.DATABASES["default"]["TEST"]["NAME"]
    settings.DATABASES["default"]["NAME"] = connections["default"].settings_dict["NAME"] = test_name
    settings.RATELIMIT_ENABLE = False
    settings.PASSWORD_HASHERS = FAST_HASHERS
    settings.SKYJO_AUTOPLAY = True
    settings.SKYJO_BOT_DELAY = float(os.environ.get("SKYJO_TEST_BOT_DELAY", "0.05"))
    runner.start_when_server_runs()  # as skyjo_site.asgi does when first imported


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's; on PostgreSQL it first ends every other session on the test database
    (a forked server or a stray thread would keep it from being dropped)."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(scope="session")
def _daphne_process(django_db_setup, django_db_blocker):
    from daphne.testing import DaphneProcess
    from django.conf import settings
    from django.db import connections

    for connection in connections.all():
        if connection.vendor == "sqlite" and connection.is_in_memory_db():
            pytest.fail("daphne_server needs a file test database (DATABASES TEST NAME).")
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "127.0.0.1", "localhost"]
    process = DaphneProcess("127.0.0.1", _get_application, setup=live_server_settings)
    # No SQLite connection may cross the fork: parent and child would share its WAL and locks.
    connections.close_all()
    with django_db_blocker.unblock():  # the forked child inherits this state
        process.start()
    while not process.ready.wait(timeout=1):
        if not process.is_alive():
            pytest.fail("The Daphne test server stopped before it was ready.")
    yield f"http://127.0.0.1:{process.port.value}"
    process.terminate()
    process.join(timeout=10)


@pytest.fixture
def daphne_server(transactional_db, _daphne_process):
    """Base URL of a live Daphne on the test database."""
    return _daphne_process


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Browser tests need Chromium at {CHROMIUM}: apt-get install chromium")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ["--disable-gpu"]}


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    return SCREENSHOT_DIR
