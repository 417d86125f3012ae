"""Writes that end lobbies and games from outside play: close a lobby, stop a game.

moderation.services calls these for a moderator (with ``void=True`` and an audit log entry);
the bot runner's stall guard (games.autoplay) stops a stuck game without voiding it. The abort
itself is games.services.abort_game, which a player ending their game against bots
(games.services.game_abandon) shares. Like every
service, each runs in one transaction, locks in the one order (Lobby, then Game),
saves only the columns it changes, and publishes after the commit, so that players' pages and
sockets learn of it at once. The admin shows game state read-only (web/games/admin.py): these are
the only ways a moderator changes it.
"""

import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from core.errors import NotFound
from games.models import Game, Lobby
from games.services import abort_game, announce_lobby

log = logging.getLogger("skyjo.moderation")


@dataclass(frozen=True)
class LobbyClosure:
    """What ``lobby_close`` did: it closed lobby ``lobby_id`` and stopped its running game
    ``game_id`` (``None``: it had none; a game already over is left as it ended)."""

    lobby_id: int
    game_id: int | None


def lobby_close(*, lobby_id: int, moderator=None, void: bool = False) -> LobbyClosure | None:
    """Close a lobby and stop its running game (voided with ``void``: it counts nowhere).
    Which game that is, and whether it still runs, is read under the locks (Lobby, then Game):
    a game that finished before is left finished. ``None``: the lobby was closed already."""
    with transaction.atomic():
        lobby = _lock_lobby(lobby_id)
        if lobby.status == Lobby.Status.CLOSED:
            return None
        lobby.status = Lobby.Status.CLOSED
        lobby.save(update_fields=["status"])
        stopped = None
        if lobby.game_id and abort_game(_lock_game(lobby.game_id), lobby, void=void):
            stopped = lobby.game_id
        announce_lobby(lobby.pk)
    log.info("lobby %s closed by %s", lobby_id, _who(moderator))
    return LobbyClosure(lobby_id=lobby_id, game_id=stopped)


def game_stop(*, game_id: int, moderator=None, void: bool = False) -> bool:
    """Stop a running game: nobody can move in it any more, and its lobby closes if this is
    its current game. With ``void`` it is voided (``Game.voided``: it counts nowhere).
    ``False``: the game was over already."""
    with transaction.atomic():
        lobby_id = Game.objects.filter(pk=game_id).values_list("lobby_id", flat=True).first()
        lobby = Lobby.objects.select_for_update(no_key=True).filter(pk=lobby_id).first()
        game = _lock_game(game_id)
        if game.is_over:
            return False
        if lobby is not None and lobby.game_id == game.pk:
            lobby.status = Lobby.Status.CLOSED
            lobby.save(update_fields=["status"])
        abort_game(game, lobby, void=void)
    log.info("game %s stopped by %s", game_id, _who(moderator))
    return True


def _lock_lobby(lobby_id: int) -> Lobby:
    lobby = Lobby.objects.select_for_update(no_key=True).filter(pk=lobby_id).first()
    if lobby is None:
        raise NotFound(_("There is no such lobby."))
    return lobby


def _lock_game(game_id: int) -> Game:
    game = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("There is no such game."))
    return game


def _who(moderator) -> str:
    return f"user {moderator.pk}" if moderator is not None else "the system"
