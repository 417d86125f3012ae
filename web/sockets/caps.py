"""How many websockets a user and an address may hold open: each claims a place under both,
renewed every ``RENEW`` s, lapsing after ``LAPSE``; in Redis sorted sets, else the local cache."""

import threading
import time

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache

RENEW = 60
LAPSE = 3 * RENEW
_lock = threading.Lock()  # the in-memory claims: one read-modify-write at a time


def _keys(user_id: int, address: str | None) -> list[tuple[str, int]]:
    caps = [
        (f"user:{user_id}", settings.SKYJO_WS_MAX_PER_USER),
        (f"addr:{address}", address and settings.SKYJO_WS_MAX_PER_ADDRESS),
    ]
    return [(caches["default"].make_key(f"ws-claims:{name}"), cap) for name, cap in caps if cap]


def claim(*, user_id: int, address: str | None, channel: str) -> str | None:
    """Claim one socket for ``channel``: ``None`` within the caps, else what is full (``"user"``
    or ``"address"``), and nothing is claimed."""
    if not settings.RATELIMIT_ENABLE:
        return None
    keys = _keys(user_id, address)
    counts = _redis_claim(keys, channel) if _redis() else _memory_claim(keys, channel)
    for (key, limit), count in zip(keys, counts, strict=True):
        if count > limit:
            release(user_id=user_id, address=address, channel=channel)
            return "user" if ":user:" in key else "address"
    return None


def renew(*, user_id: int, address: str | None, channel: str) -> None:
    if settings.RATELIMIT_ENABLE:
        keys = _keys(user_id, address)
        _redis_claim(keys, channel) if _redis() else _memory_claim(keys, channel)


def release(*, user_id: int, address: str | None, channel: str) -> None:
    keys = [key for key, _limit in _keys(user_id, address)]
    client = _redis()
    if client is not None:
        pipe = client.pipeline()
        for key in keys:
            pipe.zrem(key, channel)
        pipe.execute()
        return
    cache = caches["default"]
    with _lock:
        for key in keys:
            claims = cache.get(key) or {}
            if claims.pop(channel, None) is not None:
                cache.set(key, claims, LAPSE)


def _redis():
    """The default cache's Redis client, or ``None``."""
    cache = caches["default"]
    return cache._cache.get_client(write=True) if isinstance(cache, RedisCache) else None


def _redis_claim(keys, channel: str) -> list[int]:
    now = time.time()
    pipe = _redis().pipeline()
    for key, _limit in keys:
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zadd(key, {channel: now + LAPSE})
        pipe.zcard(key)
        pipe.expire(key, LAPSE)
    results = pipe.execute()
    return [results[4 * i + 2] for i in range(len(keys))]


def _memory_claim(keys, channel: str) -> list[int]:
    cache = caches["default"]
    now = time.time()
    counts = []
    with _lock:
        for key, _limit in keys:
            claims = {c: t for c, t in (cache.get(key) or {}).items() if t > now}
            claims[channel] = now + LAPSE
            cache.set(key, claims, LAPSE)
            counts.append(len(claims))
    return counts
