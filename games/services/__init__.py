"""Every write of the games app, in rooms: lobbies, play, presence, schedule, stop; locks holds
the one lock order and announce what is told after the commit. Callers use this facade."""

from games.services.announce import game as announce_game
from games.services.announce import lobby as announce_lobby
from games.services.lobbies import (
    MAX_END_SCORE,
    MAX_GRACE,
    MAX_NAME,
    bot_game_create,
    lobby_add_bot,
    lobby_create,
    lobby_join,
    lobby_leave,
    lobby_remove_bot,
    lobby_remove_player,
    lobby_start,
)
from games.services.play import (
    MoveResult,
    abort_game,
    game_abandon,
    game_apply_action,
    game_rematch,
    game_set_ready,
)
from games.services.presence import game_player_back, game_player_reconnected, game_player_seen
from games.services.schedule import (
    game_lock_due,
    game_reschedule,
    game_seat_timed_out,
    next_look,
    restore,
)
from games.services.stop import LobbyClosure, game_stop, lobby_close
from games.services.tables import room_open, table_open

__all__ = [
    "MAX_END_SCORE",
    "MAX_GRACE",
    "MAX_NAME",
    "LobbyClosure",
    "MoveResult",
    "abort_game",
    "announce_game",
    "announce_lobby",
    "bot_game_create",
    "game_abandon",
    "game_apply_action",
    "game_lock_due",
    "game_player_back",
    "game_player_reconnected",
    "game_player_seen",
    "game_rematch",
    "game_reschedule",
    "game_seat_timed_out",
    "game_set_ready",
    "game_stop",
    "lobby_add_bot",
    "lobby_close",
    "lobby_create",
    "lobby_join",
    "lobby_leave",
    "lobby_remove_bot",
    "lobby_remove_player",
    "lobby_start",
    "next_look",
    "restore",
    "room_open",
    "table_open",
]
