"""Signs of life from players' game sockets (games.presence says what they mean)."""

from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

from games import presence
from games.models import GamePlayer
from games.services import announce, held, locks
from games.services.play import _write
from games.services.schedule import restore, schedule


def game_player_seen(*, game_id: int, user, change: int = 0, active: bool = False) -> None:
    """A sign of life from ``user``'s game socket: ``change`` +1 on connect, -1 on disconnect;
    ``active``: a frame the player sent, ending their run of timeouts. A no-op for spectators."""
    rows = GamePlayer.objects.filter(game_id=game_id, user_id=user.pk)
    seen = {"last_seen": timezone.now()}
    if change:
        with transaction.atomic():
            held.seats_changed(game_id, user_id=user.pk)
            seen["connections"] = Greatest(F("connections") + change, 0)
            if rows.update(**seen):
                announce.presence(game_id)
    elif not active:
        rows.update(**seen)
    elif not rows.filter(timeouts=0).update(**seen):
        _clear_timeouts(game_id, rows, seen)


def _clear_timeouts(game_id: int, rows, seen: dict) -> None:
    """A frame from a seat with timeouts in a row: none now (no longer away, if it was)."""
    seat, timeouts = rows.values_list("seat", "timeouts").first() or (None, 0)
    if seat is None:
        return
    if timeouts >= presence.AWAY_AFTER_TIMEOUTS:
        game_player_back(game_id=game_id, seat=seat, seen=seen)
        return
    with transaction.atomic():
        held.seats_changed(game_id)
        rows.update(**seen, timeouts=0)


def game_player_back(*, game_id: int, seat: int, seen: dict) -> None:
    """``seat``, away after timeouts, sent a frame: no longer away (``seen``: the columns)."""
    with transaction.atomic():
        game = locks.game(game_id)
        held.seats_changed(game_id)
        GamePlayer.objects.filter(game=game, seat=seat).update(**seen, timeouts=0)
        game.seats_version += 1
        if not game.is_over:
            _announce_back(game, seat, presence.seats_of(game))


def game_player_reconnected(*, game_id: int, seat: int) -> bool:
    """``seat``, away after its grace, connected: whether that ended its away state (told)."""
    with transaction.atomic():
        game = locks.game(game_id)
        if game.is_over:
            return False
        seats = presence.seats_of(game)
        if seat in presence.game_away_seats(game, seats=seats):
            return False  # away after timeouts: only a frame of its own ends that
        _announce_back(game, seat, seats)
        return True


def _announce_back(game, seat: int, seats) -> None:
    state = restore(game)
    game.version += 1
    reset = schedule(game, state, seats, mover=seat)
    _write(game, state, game.version - 1, fields=("version", "bot_due_at"), reset=reset)
    announce.game(game, state, {"kind": "back", "seat": seat}, seats)
    held.hold(game, state, seats)
