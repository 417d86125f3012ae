"""Ending lobbies and games from outside play: for a moderator, or the bot runner's guard."""

import logging
from dataclasses import dataclass

from django.db import transaction

from games.models import Lobby
from games.services import announce, locks
from games.services.play import abort_game

log = logging.getLogger("skyjo.moderation")


@dataclass(frozen=True)
class LobbyClosure:
    """A closed lobby and the game it stopped (``None``: none)."""

    lobby_id: int
    game_id: int | None


def lobby_close(*, lobby_id: int, moderator=None, void: bool = False) -> LobbyClosure | None:
    """Close a lobby and stop its running game (voided with ``void``); ``None``: closed already."""
    with transaction.atomic():
        lobby = locks.lobby(lobby_id)
        if lobby.status == Lobby.Status.CLOSED:
            return None
        lobby.status = Lobby.Status.CLOSED
        lobby.save(update_fields=["status"])
        stopped = None
        if lobby.game_id and abort_game(locks.game(lobby.game_id), lobby, void=void):
            stopped = lobby.game_id
        announce.lobby(lobby.pk)
    log.info("lobby %s closed by %s", lobby_id, _who(moderator))
    return LobbyClosure(lobby_id=lobby_id, game_id=stopped)


def game_stop(*, game_id: int, moderator=None, void: bool = False) -> bool:
    """Stop a running game (voided with ``void``), closing its lobby if it is the current game;
    ``False``: over already."""
    with transaction.atomic():
        lobby, game = locks.lobby_and_game(game_id)
        if game.is_over:
            return False
        if lobby is not None and lobby.game_id == game.pk:
            lobby.status = Lobby.Status.CLOSED
            lobby.save(update_fields=["status"])
        abort_game(game, lobby, void=void)
    log.info("game %s stopped by %s", game_id, _who(moderator))
    return True


def _who(moderator) -> str:
    return f"user {moderator.pk}" if moderator is not None else "the system"
