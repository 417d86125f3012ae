"""What the services tell after the commit (games.publish): saved before anyone hears of it."""

from django.db import transaction

from games import engine, publish, selectors


def game(row, state: engine.Game, event: dict, seats=None) -> None:
    """Every socket of game ``row`` gets its new version: public view, meta and ``event``."""
    public = engine.view_of(state, None)
    meta = selectors.game_meta(row, state, seats)
    transaction.on_commit(lambda: publish.game_changed(public, meta, event))


def lobby(lobby_id: int) -> None:
    """The lobby's page and the lobby list learn that it changed."""
    transaction.on_commit(lambda: publish.lobby_changed(lobby_id))


def presence(game_id: int) -> None:
    """A player's game socket opened or closed."""
    transaction.on_commit(lambda: publish.presence_changed(game_id))
