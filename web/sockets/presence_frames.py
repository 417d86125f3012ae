"""Who a game waits for (offline seats the bot does not play yet), read once per process for
all its sockets after a hint, or from a recent read (the heartbeat's). Not versioned."""

import asyncio
import json
import time
from weakref import WeakKeyDictionary

from django.utils import translation

from core.caches import BoundedCache
from core.db import in_db_thread
from games import selectors
from web.games import rendering

SETTLE = 0.05  # seconds a read waits for more hints of the same game (a burst of connects)

# Per event loop: game -> its next read, not begun yet.
_waiting: "WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, asyncio.Task]]" = (
    WeakKeyDictionary()
)
# game -> (when the last read began, what it found)
_last = BoundedCache(4096, "presence_frames.last_reads")


async def read(game_id: int) -> tuple[selectors.Offline, ...]:
    """The game's offline seats, from a read that begins after this call (shared with the
    sockets that asked before it began)."""
    waiting = _waiting.setdefault(asyncio.get_running_loop(), {})
    task = waiting.get(game_id)
    if task is None or task.done():
        task = waiting[game_id] = asyncio.ensure_future(_read(waiting, game_id))
    return await asyncio.shield(task)


async def recent(game_id: int, max_age: float) -> tuple[selectors.Offline, ...]:
    """The game's offline seats from a read begun at most ``max_age`` seconds ago."""
    last = _last.get(game_id)
    if last is not None and time.monotonic() - last[0] <= max_age:
        return last[1]
    return await read(game_id)


async def _read(waiting: dict, game_id: int) -> tuple[selectors.Offline, ...]:
    try:
        await asyncio.sleep(SETTLE)
    finally:
        waiting.pop(game_id, None)  # a hint from now on needs a read that begins after it
    begun = time.monotonic()
    offline = await in_db_thread(selectors.game_offline_by_id)(game_id)
    last = _last.get(game_id)
    if last is None or last[0] < begun:  # reads may end out of order: keep the latest begun
        _last.put(game_id, (begun, offline))
    return offline


def frame(offline, *, json_mode: bool, language: str) -> str:
    if json_mode:
        seats = [
            {"seat": o.seat, "name": o.name, "bot_at": int(o.bot_at.timestamp() * 1000)}
            for o in offline
        ]
        return json.dumps({"presence": {"offline": seats}})
    with translation.override(language):
        return rendering.presence_html(offline)
