"""Every write of the games app, in rooms (lobbies, play, presence, schedule, timeouts, stop,
...): callers use this facade."""

from games.services.lobbies import (
    MAX_END_SCORE,
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
    game_refuse_stale,
    game_rematch,
    game_set_ready,
)
from games.services.presence import game_player_reconnected, game_player_seen
from games.services.schedule import (
    game_lock_due,
    game_reschedule,
    restore,
)
from games.services.stop import LobbyClosure, game_stop, lobby_close
from games.services.tables import room_open, table_open
from games.services.timeouts import game_seat_forfeit, game_seat_timed_out
from games.services.turns import game_remind
from games.services.vacations import vacation_end, vacation_start
