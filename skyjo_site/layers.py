"""The Redis channel layer settings, built in one place for settings.py and the tests."""

from urllib.parse import parse_qs, urlsplit

from django.core.exceptions import ImproperlyConfigured

BACKENDS = {
    "core": "channels_redis.core.RedisChannelLayer",
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
}

# Longer than channels_redis core's 5 s BZPOPMIN, whose late empty answer would time out.
SOCKET_TIMEOUT = 30


def redis_channel_layer(
    url: str, *, kind: str = "core", max_connections: int = 1000, capacity: int = 1000
) -> dict:
    """The ``CHANNEL_LAYERS["default"]`` of channels_redis on ``url``: ``max_connections`` per
    process (a ``?max_connections=N`` on the URL wins), ``capacity`` per channel (core only)."""
    for value in parse_qs(urlsplit(url).query).get("max_connections", []):
        if not value.isdigit() or int(value) < 1:
            raise ImproperlyConfigured(
                f"REDIS_URL={url!r} is invalid: max_connections must be a whole number >= 1."
            )
    host = {"address": url, "max_connections": max_connections, "socket_timeout": SOCKET_TIMEOUT}
    config: dict = {"hosts": [host]}
    if kind == "core":
        config.update(capacity=capacity, expiry=60)
    return {"BACKEND": BACKENDS[kind], "CONFIG": config}
