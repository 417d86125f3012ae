"""Open websockets are capped per user and per address, counted across processes through Redis
(issue 10, item 4)."""

import os
import subprocess
import sys

import pytest
from channels.testing import WebsocketCommunicator

from conftest import ROOT
from games.tests.helpers import start_game
from games.tests.ws import ROUTER, db

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def open_socket(user, path: str, address: str = "198.51.100.7"):
    """A socket and the first thing the server did with it: ``"open"`` (its first frame came)
    or the close code."""
    comm = WebsocketCommunicator(ROUTER, path)
    comm.scope.update(user=user, cookies={}, client=[address, 40000])
    connected, code = await comm.connect(timeout=5)
    assert connected, code
    message = await comm.receive_output(timeout=5)
    if message["type"] == "websocket.close":
        return comm, message["code"]
    return comm, "open"


@pytest.fixture
def small_caps(settings):
    settings.SKYJO_WS_MAX_PER_USER = 3
    settings.SKYJO_WS_MAX_PER_ADDRESS = 5


async def test_a_user_over_the_cap_is_closed_with_4430(alice, bob, small_caps):
    game = await db(start_game)(alice, bob)
    paths = [f"/ws/games/{game.pk}/?format=json", "/ws/lobbies/", f"/ws/games/{game.pk}/"]
    opened = []
    for path in paths:
        comm, state = await open_socket(alice, path)
        assert state == "open"
        opened.append(comm)
    comm, state = await open_socket(alice, "/ws/lobbies/")
    assert state == 4430
    other, state = await open_socket(bob, "/ws/lobbies/")
    assert state == "open"  # another user is not counted with alice
    await opened.pop().disconnect()
    again, state = await open_socket(alice, "/ws/lobbies/")
    assert state == "open"  # a closed socket frees its place
    for comm in [*opened, other, again]:
        await comm.disconnect()


async def test_an_address_over_the_cap_is_closed_with_4430(alice, bob, charlie, small_caps):
    opened = []
    for user in (alice, alice, bob, bob, charlie):
        comm, state = await open_socket(user, "/ws/lobbies/", address="203.0.113.9")
        assert state == "open"
        opened.append(comm)
    comm, state = await open_socket(charlie, "/ws/lobbies/", address="203.0.113.9")
    assert state == 4430
    elsewhere, state = await open_socket(charlie, "/ws/lobbies/", address="203.0.113.10")
    assert state == "open"
    for comm in [*opened, elsewhere]:
        await comm.disconnect()


async def test_the_caps_are_off_with_the_other_limits(alice, small_caps, settings):
    settings.RATELIMIT_ENABLE = False
    opened = [await open_socket(alice, "/ws/lobbies/") for _ in range(5)]
    assert [state for _comm, state in opened] == ["open"] * 5
    for comm, _state in opened:
        await comm.disconnect()


CLAIM_ELSEWHERE = """
import django, os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "skyjo_site.settings"
django.setup()
from web.sockets import caps
for n in range(int(sys.argv[2])):
    assert caps.claim(user_id=int(sys.argv[1]), address="192.0.2.1", channel=f"other.{n}") is None
"""


async def test_sockets_on_another_process_count_through_redis(
    alice, small_caps, settings, redis_url
):
    prefix = f"caps-test-{os.getpid()}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": prefix,
        }
    }
    env = {**os.environ, "REDIS_URL": redis_url, "CACHE_KEY_PREFIX": prefix}
    env.pop("DATABASE_URL", None)
    subprocess.run(
        [sys.executable, "-c", CLAIM_ELSEWHERE, str(alice.pk), "2"], env=env, cwd=ROOT, check=True
    )
    comm, state = await open_socket(alice, "/ws/lobbies/")
    assert state == "open"  # 2 elsewhere + 1 here = the cap of 3
    refused, state = await open_socket(alice, "/ws/lobbies/")
    assert state == 4430
    await comm.disconnect()
    from web.sockets import caps

    client = caps._redis()
    client.delete(*client.keys(f"{prefix}:*"))
