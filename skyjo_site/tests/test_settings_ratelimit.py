"""The rate-limit and cache settings: defaults, overrides and clear errors."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from skyjo_site import env
from skyjo_site.tests.settings_helpers import PRODUCTION, _manage


def test_the_defaults(load):
    s = load()
    assert s["RATELIMIT_ENABLE"] is True
    assert s["RATELIMIT_VIEW"] == "web.ratelimit.ratelimited"
    assert (
        s["SKYJO_RATELIMIT_REGISTER"],
        s["SKYJO_RATELIMIT_CREATE"],
        s["SKYJO_RATELIMIT_JOIN"],
        s["SKYJO_RATELIMIT_WRITE"],
    ) == ("5/h", "20/h", "120/h", "60/m")
    assert (s["SKYJO_WS_RATE"], s["SKYJO_WS_BURST"], s["SKYJO_WS_MAX_DROPPED"]) == (10, 20, 200)
    assert s["CACHES"]["default"]["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    assert "django_ratelimit.E003" in s["SILENCED_SYSTEM_CHECKS"]


def test_overrides(load):
    s = load(
        SKYJO_RATELIMIT="off",
        SKYJO_RATELIMIT_REGISTER="3/D",
        SKYJO_RATELIMIT_CREATE="10/30m",
        SKYJO_RATELIMIT_JOIN="1000/d",
        SKYJO_RATELIMIT_WRITE="5/s",
        SKYJO_WS_RATE="2.5",
        SKYJO_WS_BURST="5",
        SKYJO_WS_MAX_DROPPED="50",
    )
    assert s["RATELIMIT_ENABLE"] is False
    assert s["SKYJO_RATELIMIT_REGISTER"] == "3/d"
    assert s["SKYJO_RATELIMIT_CREATE"] == "10/30m"
    assert (s["SKYJO_RATELIMIT_JOIN"], s["SKYJO_RATELIMIT_WRITE"]) == ("1000/d", "5/s")
    assert (s["SKYJO_WS_RATE"], s["SKYJO_WS_BURST"], s["SKYJO_WS_MAX_DROPPED"]) == (2.5, 5, 50)


def test_redis_url_makes_the_cache_shared(load):
    s = load(REDIS_URL="redis://cache.internal:6379/0")
    cache = s["CACHES"]["default"]
    assert cache["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    assert (cache["LOCATION"], cache["KEY_PREFIX"]) == ("redis://cache.internal:6379/0", "skyjo")
    assert "django_ratelimit.E003" not in s["SILENCED_SYSTEM_CHECKS"]
    own = load(
        REDIS_URL="redis://cache.internal:6379/0",
        CACHE_REDIS_URL="redis://cache.internal:6379/3",
        CACHE_KEY_PREFIX="skyjo-blue",
    )["CACHES"]["default"]
    assert (own["LOCATION"], own["KEY_PREFIX"]) == ("redis://cache.internal:6379/3", "skyjo-blue")


@pytest.mark.parametrize("value", ["5/h", "100/10m", "1/s", "7/2d"])
def test_env_rate_accepts(monkeypatch, value):
    monkeypatch.setenv("X_RATE", value)
    assert env.env_rate("X_RATE", "1/s") == value


@pytest.mark.parametrize("value", ["h", "/h", "5/", "-5/h", "+5/h", "5/-1m", "²/h", "5/h/h"])
def test_env_rate_refuses(monkeypatch, value):
    monkeypatch.setenv("X_RATE", value)
    with pytest.raises(ImproperlyConfigured, match="X_RATE="):
        env.env_rate("X_RATE", "1/s")


@pytest.mark.parametrize("redis", [False, True])
def test_django_ratelimit_checks_pass(redis):
    """Only django-ratelimit's cache checks are silenced (LocMem: E003 and W001; Django's
    RedisCache: W001), so ``check --deploy`` stays clean on both."""
    extra = {"REDIS_URL": "redis://127.0.0.1:6379/0"} if redis else {}
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        **PRODUCTION,
        **extra,
        SECURE_HSTS_INCLUDE_SUBDOMAINS="true",
        SECURE_HSTS_PRELOAD="true",
    )
    assert result.returncode == 0, result.stderr + result.stdout
