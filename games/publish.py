"""Telling connected sockets that something changed: called by services after the commit.

A game message holds only public things: the spectator view (packed), the public board HTML
rendered once here, the public ``meta`` (ready seats, rematch) and the event. Each connection
adds its own seat's private part (games.consumers). The shared HTML is in LANGUAGE_CODE and says
so (``language``): a socket in another language renders its own copy.
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation

from games import rendering
from games.presenters import view_to_data

log = logging.getLogger(__name__)

LOBBY_LIST_GROUP = "lobbies"


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


def lobby_group(lobby_id: int) -> str:
    return f"lobby.{lobby_id}"


def game_changed(public_view, meta: dict, event: dict) -> None:
    with translation.override(settings.LANGUAGE_CODE):
        html = rendering.board_html(public_view, meta)
    message = {
        "type": "game.updated",
        "version": meta["version"],
        "view": view_to_data(public_view),
        "meta": meta,
        "event": event,
        "html": html,
        "language": settings.LANGUAGE_CODE,
    }
    _send(game_group(meta["game"]), message)


def lobby_changed(lobby_id: int) -> None:
    _send(lobby_group(lobby_id), {"type": "lobby.updated", "lobby": lobby_id})
    with translation.override(settings.LANGUAGE_CODE):
        html = rendering.lobby_list_html()
    _send(
        LOBBY_LIST_GROUP,
        {"type": "lobbies.updated", "html": html, "language": settings.LANGUAGE_CODE},
    )


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # the move is saved; a socket that misses this resyncs on the next one
        log.exception("could not publish to %s", group)
