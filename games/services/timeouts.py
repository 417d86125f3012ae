"""The turn clock ran out on a seat, before the bot runner plays its step: a timeout counted
in a row, or (correspondence, when its lobby says so) the game lost on time."""

from django.db import transaction
from django.db.models import F

from games.models import GamePlayer
from games.services import held, locks


def game_seat_timed_out(*, game_id: int, seat: int) -> None:
    """The turn clock ran out on ``seat``: one more timeout in a row (before the step)."""
    with transaction.atomic():
        locks.game(game_id)
        held.seats_changed(game_id)
        GamePlayer.objects.filter(game_id=game_id, seat=seat, user__isnull=False).update(
            timeouts=F("timeouts") + 1
        )


def game_seat_forfeit(*, game_id: int, seat: int) -> None:
    """The clock of a correspondence game whose lobby says so ran out on ``seat``: that player
    loses (ranked last) and the medium bot plays the seat from now on."""
    with transaction.atomic():
        locks.game(game_id)
        held.seats_changed(game_id)
        GamePlayer.objects.filter(game_id=game_id, seat=seat, user__isnull=False).update(
            forfeited=True
        )
