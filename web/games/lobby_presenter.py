"""The context of a lobby page and of its seats, shared by the page (web.games.views) and the
lobby socket (web.sockets.lobby)."""

from games import selectors
from games.bots import LEVELS
from games.labels import BOT_LEVEL_LABELS
from games.models import MIN_SEATS, Lobby

LEVEL_CHOICES = [(level, BOT_LEVEL_LABELS[level]) for level in LEVELS]


def lobby_context(
    lobby: Lobby, user, invite_code: str | None = None, removed: frozenset[int] | None = None
) -> dict:
    """What games/lobby.html and games/partials/lobby_seats.html show ``user``; ``removed``:
    the lobby's removed users (selectors.lobby_removed_ids), if read already."""
    seats = list(lobby.seats.all())
    my_seat = next((s for s in seats if s.user_id == user.pk), None)
    taken = sum(not s.is_empty for s in seats)
    return {
        "lobby": lobby,
        "seats": seats,
        "my_seat": my_seat,
        "is_host": lobby.host_id == user.pk,
        "taken": taken,
        "can_start": taken >= MIN_SEATS,
        "is_full": taken >= lobby.seat_count,
        "invite_code": invite_code,
        "removed": selectors.was_removed(lobby, user, removed),
        "bot_levels": LEVEL_CHOICES,
    }
