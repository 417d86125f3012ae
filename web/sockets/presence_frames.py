"""Who a game waits for, pushed to its sockets: the seats with no game socket open that the
bot does not play for yet (games.presence.offline), with the time left before it does.

A player's socket that opens or closes sends the game's group a hint holding nothing
(publish.presence_changed). Each process then reads the seats once for all its sockets of
the game that the hint reached, and each socket sends the result if it changed for its
viewer. The database is the truth, the hint only says "read again": hints from two processes
may arrive in either order, but every hint is followed by a read that starts after it came,
so after its commit. Not versioned: a page reload must not make the other players' moves
stale (docs/protocol.md).

A hint lost on the way (a channel layer may drop messages under load) is made good by the
sockets' heartbeat: every SKYJO_HEARTBEAT seconds a socket shows what a read begun at most that
long ago says (:func:`recent`), one read per game and period in a process, however many of its
sockets follow that game.
"""

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

# Per event loop (tests run one after another, each on its own): game -> its next read, not
# begun yet; game -> when the last read began and what it found (a few games per socket).
_waiting: "WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, asyncio.Task]]" = (
    WeakKeyDictionary()
)
_last: "WeakKeyDictionary[asyncio.AbstractEventLoop, BoundedCache]" = WeakKeyDictionary()


async def read(game_id: int) -> tuple[selectors.Offline, ...]:
    """The game's offline seats, read after this call began: the read waiting to begin, if
    there is one (shared with the sockets that asked before), else a new one."""
    waiting = _waiting.setdefault(asyncio.get_running_loop(), {})
    task = waiting.get(game_id)
    if task is None or task.done():
        task = waiting[game_id] = asyncio.ensure_future(_read(waiting, game_id))
    return await asyncio.shield(task)


async def recent(game_id: int, max_age: float) -> tuple[selectors.Offline, ...]:
    """The game's offline seats from a read begun at most ``max_age`` seconds ago: the last
    one of this process (a hint's or another socket's heartbeat) if it is that young, else a
    new one."""
    last = _last_reads().get(game_id)
    if last is not None and time.monotonic() - last[0] <= max_age:
        return last[1]
    return await read(game_id)


def _last_reads() -> BoundedCache:
    return _last.setdefault(asyncio.get_running_loop(), BoundedCache(4096))


async def _read(waiting: dict, game_id: int) -> tuple[selectors.Offline, ...]:
    try:
        await asyncio.sleep(SETTLE)
    finally:
        waiting.pop(game_id, None)  # a hint from now on needs a read that begins after it
    begun = time.monotonic()
    offline = await in_db_thread(selectors.game_offline_by_id)(game_id)
    last = _last_reads().get(game_id)
    if last is None or last[0] < begun:  # reads may end out of order: keep the latest begun
        _last_reads().put(game_id, (begun, offline))
    return offline


def shown_to(offline, seat: int | None) -> tuple[selectors.Offline, ...]:
    """What a seat's socket shows: never its own seat (its socket is open)."""
    return tuple(o for o in offline if o.seat != seat)


def frame(offline, *, json_mode: bool, language: str) -> str:
    if json_mode:
        seats = [
            {"seat": o.seat, "name": o.name, "bot_at": int(o.bot_at.timestamp() * 1000)}
            for o in offline
        ]
        return json.dumps({"presence": {"offline": seats}})
    with translation.override(language):
        return rendering.presence_html(offline)
