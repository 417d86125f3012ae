"""Telling connected sockets what changed, after the commit (called by the services).

A game message holds only public things: the spectator view (packed by :func:`view_to_data`),
the public ``meta`` (selectors.game_meta) and the event. A lobby message names the change
(``change``), so that each process reads and renders once per change. Nothing is rendered here.

Called on a socket's database thread (core.db), a message is handed to that socket's event
loop without waiting, and one sender task per loop sends them in order; elsewhere (a view, a
command, a sync test) it is sent at once.
"""

import asyncio
import logging
import uuid
from collections import deque
from dataclasses import fields
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


_TUPLES = ("players", "discard", "revealed", "totals")


def view_to_data(view: View) -> dict:
    """``view`` as plain data for a channel layer (JSON or msgpack); :func:`view_from_data`
    reads it back."""
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


def game_message(public_view, meta: dict, event: dict) -> dict:
    return {
        "type": "game.updated",
        "version": meta["version"],
        "view": view_to_data(public_view),
        "meta": meta,
        "event": event,
    }


def game_changed(public_view, meta: dict, event: dict) -> None:
    _send(game_group(meta["game"]), game_message(public_view, meta, event))


def presence_changed(game_id: int) -> None:
    """A player's game socket opened or closed: a hint, holding nothing, after which each
    process reads once who the game waits for. Not versioned."""
    _send(game_group(game_id), {"type": "game.presence"})


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
        # The server is shutting down: async_to_sync would wait for ever for the stopped loop.
        log.info("not published to %s: the server is shutting down", group)


class _Outbox:
    __slots__ = ("queue", "task")

    def __init__(self) -> None:
        self.queue: deque = deque()
        self.task: asyncio.Task | None = None


_outboxes: "WeakKeyDictionary[asyncio.AbstractEventLoop, _Outbox]" = WeakKeyDictionary()


def _enqueue(loop: asyncio.AbstractEventLoop, layer, group: str, message: dict) -> None:
    """On the loop: queue the message; start the sender if it is idle."""
    outbox = _outboxes.get(loop)
    if outbox is None:
        outbox = _outboxes[loop] = _Outbox()
    outbox.queue.append((layer, group, message))
    if outbox.task is None or outbox.task.done():
        outbox.task = loop.create_task(_drain(outbox))


async def _drain(outbox: _Outbox) -> None:
    """Send everything queued: each group's messages in the order queued, groups side by side."""
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
