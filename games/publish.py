"""Telling connected sockets what changed, after the commit: a game message holds only the
spectator view, the public meta and the event. From a socket's database thread a message goes
to its event loop without waiting, one sender task per loop; elsewhere it is sent at once."""

import asyncio
import json
import logging
import uuid
from collections import deque
from dataclasses import dataclass, field, fields
from weakref import WeakKeyDictionary

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from core.db import serving_loop
from games.engine import RoundResult, Rules, View

log = logging.getLogger(__name__)

LOBBY_LIST_GROUP = "lobbies"


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


def lobby_group(lobby_id: int) -> str:
    return f"lobby.{lobby_id}"


def turns_group(user_id: int) -> str:
    """Every page socket of one user: their 'your turn' list and count (correspondence)."""
    return f"turns.{user_id}"


_TUPLES = ("players", "discard", "revealed", "totals")


def view_to_data(view: View) -> dict:
    """``view`` as plain data for a channel layer; :func:`view_from_data` reads it back."""
    data = {f.name: getattr(view, f.name) for f in fields(View)}
    data.update({name: list(data[name]) for name in _TUPLES})
    data.update(
        rules=view.rules.to_json(),
        grids=[list(g) for g in view.grids],
        results=[r.to_json() for r in view.results],
    )
    return data


def view_from_data(data: dict) -> View:
    results = tuple(
        RoundResult(r["starter"], r["ender"], tuple(r["raw"]), tuple(r["scores"]))
        for r in data["results"]
    )
    return View(
        **{
            **data,
            **{name: tuple(data[name]) for name in _TUPLES},
            "rules": Rules(**data["rules"]),
            "grids": tuple(tuple(g) for g in data["grids"]),
            "results": results,
        }
    )


def game_changed(public_view: View, meta: dict, event: dict) -> None:
    _send(game_group(meta["game"]), game_message(public_view, meta, event))


def game_message(public: View, meta: dict, event: dict) -> dict:
    """The ``game.updated`` message of a new version, serialized once for every socket: the
    JSON frame as its text before and after the ``drawn`` value (``frame``; a seat's own drawn
    card goes between), the seat holding a drawn card (``drawer``), the seats played by the bot
    (``away``), and the view, meta and ``event`` as one JSON text (``data``, for the sockets
    that render: :func:`message_data`). All of it public."""
    version = meta["version"]
    data = {"view": view_to_data(public), "meta": meta, "event": event}
    return {
        "type": "game.updated",
        "game": meta["game"],
        "version": version,
        "drawer": public.current if public.drawing else None,
        "away": meta["away"],
        "frame": frame_parts(public, version, meta),
        "data": json.dumps(data, separators=(",", ":")),
    }


def message_data(message: dict) -> tuple[View, dict, dict]:
    """The public view, meta and event of a ``game.updated`` message."""
    data = json.loads(message["data"])
    return view_from_data(data["view"]), data["meta"], data["event"]


_DRAWN = '"drawn":null'


def frame_parts(view: View, version: int, meta: dict) -> tuple[str, str]:
    """The JSON frame of ``view`` (docs/protocol.md; ``clock`` only while a turn clock runs)
    without its drawn card, as the text before and after the ``drawn`` value: a seat's frame
    is ``head + json.dumps(drawn) + tail``."""
    clock = meta.get("clock")
    extra = {"version": version, "clock": clock} if clock else {"version": version}
    text = json.dumps({**view.to_json(), "drawn": None, **extra}, separators=(",", ":"))
    head, _, tail = text.partition(_DRAWN)
    return head + _DRAWN[:-4], tail


def presence_changed(game_id: int) -> None:
    """A player's game socket opened or closed: a hint, holding nothing."""
    _send(game_group(game_id), {"type": "game.presence"})


def turns_changed(user_ids) -> None:
    """The correspondence games waiting for these users changed: their pages read them anew."""
    for user_id in sorted(set(user_ids)):
        _send(turns_group(user_id), {"type": "turns.changed"})


def lobby_changed(lobby_id: int) -> None:
    change = uuid.uuid4().hex
    _send(lobby_group(lobby_id), {"type": "lobby.updated", "lobby": lobby_id, "change": change})
    _send(LOBBY_LIST_GROUP, {"type": "lobbies.updated", "change": change})


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = serving_loop()
    if loop is None:
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:  # the move is saved; a socket that misses this resyncs on the next one
            log.exception("could not publish to %s", group)
        return
    try:
        if not loop.is_running():
            raise RuntimeError("the event loop has stopped")
        loop.call_soon_threadsafe(_enqueue, loop, layer, group, message)
    except RuntimeError:
        log.info("not published to %s: the server is shutting down", group)


@dataclass(slots=True)
class _Outbox:
    queue: deque = field(default_factory=deque)
    task: asyncio.Task | None = None


_outboxes: "WeakKeyDictionary[asyncio.AbstractEventLoop, _Outbox]" = WeakKeyDictionary()


def _enqueue(loop: asyncio.AbstractEventLoop, layer, group: str, message: dict) -> None:
    outbox = _outboxes.get(loop)
    if outbox is None:
        outbox = _outboxes[loop] = _Outbox()
    outbox.queue.append((layer, group, message))
    if outbox.task is None or outbox.task.done():
        outbox.task = loop.create_task(_drain(outbox))


async def _drain(outbox: _Outbox) -> None:
    """Send everything queued: each group's in order, groups side by side."""
    while outbox.queue:
        batch: dict[tuple[int, str], list] = {}
        while outbox.queue:
            layer, group, message = outbox.queue.popleft()
            batch.setdefault((id(layer), group), [layer]).append(message)
        await asyncio.gather(*(_send_in_order(group, items) for (_, group), items in batch.items()))


async def _send_in_order(group: str, items: list) -> None:
    layer, messages = items[0], items[1:]
    for message in messages:
        try:
            await layer.group_send(group, message)
        except Exception:  # as above: saved already; the sockets resync on the next version
            log.exception("could not publish to %s", group)
