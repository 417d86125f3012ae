"""Work shared by the sockets of a process: started by the first to ask, awaited by all."""

import asyncio

from core.caches import BoundedCache


async def shared(cache: BoundedCache, key, call, *args):
    """The result of ``call(*args)``, run once per ``key`` while ``cache`` holds it."""
    task = cache.get(key)
    if task is None:
        task = asyncio.ensure_future(call(*args))
        cache.put(key, task)
    return await asyncio.shield(task)
