"""Fixtures shared by every test in the project.

- ``alice``, ``bob``, ``charlie``: players whose password is ``PASSWORD``; ``moderator`` (in
  the Moderators group, staff) and ``staff`` (``is_staff`` alone, no moderator). Log a test client
  in with ``client.force_login(alice)``; ``client.login()`` does not work here because
  django-axes needs the request (use a POST to ``/accounts/login/`` to test logging in).
- ``redis_url``: a Redis to talk to (``REDIS_URL`` if set, else a private ``redis-server``).
- ``redis_channel_layer``: switches ``CHANNEL_LAYERS`` to channels_redis on ``redis_url``;
  ``redis_everywhere`` also for the Daphne servers a test forks.
- ``daphne_server``: base URL (``http://127.0.0.1:PORT``) of a real Daphne serving
  ``skyjo_site.asgi:application`` (HTTP and websockets) on the test database. Tests using it
  get ``transactional_db``: what they write is committed, so the server sees it.
- ``browser_type_launch_args``: Playwright on the system Chromium; ``screenshot_dir``.
- On PostgreSQL, connections are not kept (``DATABASE_CONN_MAX_AGE=0``) unless a test keeps
  them, in this process and the servers it forks.
- Passwords are hashed with MD5 in tests (``FAST_HASHERS``, also in the forked servers):
  PBKDF2 cost seconds per user on a loaded machine.
- Every test gets an empty cache of its own in memory (the rate-limit counters), also when
  ``REDIS_URL`` is set; the limits stay on at their defaults.
- Post-game analysis runs in the bot runner's thread, not in a worker process.
- Every test gets channel layers of its own, and fails after ``timeout`` (pyproject.toml)
  seconds with every thread's stack printed, rather than hanging the run.
- Game sockets send no heartbeat frame during a test (``SKYJO_WS_HEARTBEAT`` is an hour)
  unless the test sets it shorter.
"""

import os
import shutil
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

PASSWORD = "correct-horse-42"
ROOT = Path(__file__).resolve().parent
SCREENSHOT_DIR = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = os.environ.get("SKYJO_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_configure(config):
    """On PostgreSQL, tests and the servers they fork close their connections after each
    request and socket call (the site keeps them, DATABASE_CONN_MAX_AGE): a kept connection
    would hold the test database the run is about to drop. Tests of kept connections set
    CONN_MAX_AGE themselves."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if "postgresql" in database["ENGINE"] and "DATABASE_CONN_MAX_AGE" not in os.environ:
        os.environ["DATABASE_CONN_MAX_AGE"] = "0"
        database["CONN_MAX_AGE"], database["CONN_HEALTH_CHECKS"] = 0, False


def _make_user(django_user_model, username):
    return django_user_model.objects.create_user(
        username=username, email=f"{username}@example.com", password=PASSWORD
    )


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
    """A moderator: in the Moderators group (made anew: a transactional test's flush empties
    it), with ``is_staff``, as ``manage.py moderators --add`` makes one; no superuser."""
    from core.access import sync_group

    user = _make_user(django_user_model, username)
    user.groups.add(sync_group())
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return django_user_model.objects.get(pk=user.pk)  # no cached permissions


@pytest.fixture
def moderator(db, django_user_model):
    return _make_moderator(django_user_model, "mod")


@pytest.fixture
def staff(db, django_user_model):
    """A staff member who is no moderator: ``is_staff`` alone (the admin's login), no group,
    no permission. Sees what any player sees."""
    user = _make_user(django_user_model, "staff")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


# A fast hasher for the tests' own users (PBKDF2's million rounds cost seconds per user on a
# loaded machine); PBKDF2 stays second, so that any stored hash still checks.
FAST_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS


@pytest.fixture(autouse=True)
def _no_implicit_bot_runner(settings):
    """Tests play bot turns with games.autoplay.play_due_turns (or start the loop themselves);
    the Daphne servers they fork turn the runner back on (``live_server_settings``)."""
    settings.SKYJO_AUTOPLAY = False


@pytest.fixture(autouse=True)
def _analysis_in_the_runner_thread(settings):
    """A finished game's analysis is computed where a test (or its server) calls the runner,
    not in a worker process that would outlive the test's database; the worker's own test
    turns it on (analysis/tests/test_pages.py)."""
    settings.SKYJO_ANALYSIS_WORKER = False


@pytest.fixture(autouse=True)
def _default_language():
    """No test leaves another language active for the next one (a page or a socket switches
    the thread's language while it renders)."""
    from django.utils import translation

    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_caches():
    """Every process-local cache (core.caches) is emptied: their keys (a game and version, a
    lobby change) may come back in another test."""
    from core import caches

    caches.clear_all()


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """Every test gets channel layers of its own. Each async test runs on a new event loop, and a
    channels_redis layer keeps per-loop state (its receive lock, buffers and pools): one shared
    across tests could leave a task of the next loop waiting on something of the last one."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _no_heartbeat_frames(settings):
    """No heartbeat frame slips between the frames a test reads from a game socket (a slow
    run can last longer than SKYJO_WS_HEARTBEAT); the heartbeat's own tests set it short."""
    settings.SKYJO_WS_HEARTBEAT = 3600


@pytest.fixture(autouse=True)
def _private_cache(settings, request):
    """A fresh in-memory cache per test: no rate-limit count leaks from one test (or run, or
    parallel run on the same Redis) into another."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-{os.getpid()}-{request.node.nodeid}",
        }
    }
    from django.core.cache import cache

    cache.clear()


def live_server_settings():
    """In a forked test server: run the bot runner, with short bot pauses, and no rate limits
    (its cache is the real one, which tests cannot clear)."""
    from django.conf import settings

    settings.RATELIMIT_ENABLE = False
    settings.PASSWORD_HASHERS = FAST_HASHERS
    settings.SKYJO_AUTOPLAY = True
    settings.SKYJO_BOT_DELAY = float(os.environ.get("SKYJO_TEST_BOT_DELAY", "0.05"))
    from web import runner

    runner.start_when_server_runs()  # as skyjo_site.asgi does when first imported


@pytest.fixture(autouse=True)
def _allow_orm_in_browser_tests(request, monkeypatch):
    """Playwright's sync API runs an event loop in the test's thread: let e2e tests use the ORM
    all the same, and publish from another thread (async_to_sync refuses a thread with a
    running loop: each service a test called logged a traceback and told no socket)."""
    if not request.node.get_closest_marker("e2e"):
        return
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from games import publish

    send = publish._send

    def send_from_a_thread(group, message):
        with ThreadPoolExecutor(1) as thread:
            thread.submit(send, group, message).result()

    monkeypatch.setattr(publish, "_send", send_from_a_thread)


# Redis ------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_timeout=1).ping())
    except redis.exceptions.RedisError:
        return False


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """A Redis URL: ``REDIS_URL`` when set, else a ``redis-server`` started for this run."""
    url = os.environ.get("REDIS_URL")
    if url:
        if not _redis_answers(url):
            pytest.fail(f"REDIS_URL={url} is set but no Redis answers there.")
        yield url
        return
    server = shutil.which("redis-server")
    if server is None:
        pytest.fail(
            "This test needs Redis: set REDIS_URL, or install redis-server "
            "(apt-get install redis-server) so the tests can start their own."
        )
    port = _free_port()
    workdir = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        deadline = time.monotonic() + 10
        while not _redis_answers(url):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"redis-server did not start on port {port}.")
            time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


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
    """``redis_channel_layer`` for this process and the Daphne servers it forks, which tests
    reach as 127.0.0.1 or localhost."""
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    return redis_channel_layer


# Daphne -----------------------------------------------------------------------------------


def _get_application():
    from skyjo_site.asgi import application

    return application


def _use_test_database():
    from django.conf import settings
    from django.db import connections

    test_name = settings.DATABASES["default"]["TEST"]["NAME"]
    settings.DATABASES["default"]["NAME"] = test_name
    connections["default"].settings_dict["NAME"] = test_name
    live_server_settings()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's, and before it drops a PostgreSQL test database, the end of every other
    session still on it: a forked server or a thread that outlived its test would otherwise
    keep the database ("being accessed by other users") and leave it behind."""
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
    process = DaphneProcess("127.0.0.1", _get_application, setup=_use_test_database)
    # No SQLite connection may cross the fork: the child would share its WAL index and locks,
    # and once this process closed it (pytest-django does between tests) SQLite deleted the WAL
    # file the child still used, so neither saw the other's writes any more.
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
    """Base URL of a live Daphne on the test database, e.g. ``http://127.0.0.1:40123``."""
    return _daphne_process


# Playwright -------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Browser tests need Chromium at {CHROMIUM}: apt-get install chromium")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "headless": True,
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    return SCREENSHOT_DIR
