"""Telling connected sockets that something changed: called by services after the commit.

A game message holds only public things: the spectator view (packed), the public ``meta``
(selectors.game_meta: the game, version, status, ready and away seats, rematch, the last
moves and the turn clock) and the event. Nothing is rendered here: a
socket that speaks HTML renders the board from the message (once per version and language in
a process, web.games.rendering.board_for) and adds its own seat's private part (web.sockets.game).

Sending never holds up the thread that called the service (which, in a consumer, is the one
thread that makes every database call of the process): the message is handed to the event loop
that thread serves, without waiting, and one sender task per loop sends them in order. With no
event loop behind the calling thread (a plain WSGI view, a management command, a sync test),
the message is sent at once, as before.
"""

import asyncio
import logging
import os
import uuid
from collections import deque
from weakref import WeakKeyDictionary

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation

from web.games import rendering
from web.games.presenters import view_to_data

log = logging.getLogger(__name__)

LOBBY_LIST_GROUP = "lobbies"


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


def lobby_group(lobby_id: int) -> str:
    return f"lobby.{lobby_id}"


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
    process reads once who the game waits for (web.sockets.game). Not versioned: a page reload
    must not make the other players' moves stale."""
    _send(game_group(game_id), {"type": "game.presence"})


def lobby_changed(lobby_id: int) -> None:
    # ``change`` names this change: the sockets of a process read the lobby and render its page
    # once for it per kind of viewer and language, the list once per language (web.sockets.game).
    change = uuid.uuid4().hex
    _send(lobby_group(lobby_id), {"type": "lobby.updated", "lobby": lobby_id, "change": change})
    with translation.override(settings.LANGUAGE_CODE):
        html = rendering.lobby_list_html()  # reads the database: here, not on the event loop
    message = {"html": html, "language": settings.LANGUAGE_CODE, "change": change}
    _send(LOBBY_LIST_GROUP, {"type": "lobbies.updated", **message})


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    loop = _serving_loop()
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
        # The server is shutting down (a socket's last presence write, say): its sockets are
        # closing, and async_to_sync would wait for ever for the stopped loop to run it.
        log.info("not published to %s: the server is shutting down", group)


def _serving_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop whose sync_to_async call this thread is serving, if any: running, or
    stopped while the server shuts down. asgiref never forgets a thread's loop: a closed one
    is that of a call long over (a test's), and this thread is on its own now."""
    local = SyncToAsync.threadlocal
    loop = getattr(local, "main_event_loop", None)
    if loop is None or getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    return None if loop.is_closed() else loop


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
