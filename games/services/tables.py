"""Tables opened for another app (a tournament): a lobby already playing, its seats given, its
game started at once, no host; and a chat room, a lobby without seats that is never listed."""

from django.db import transaction

from core.errors import InvalidLobby
from games.models import MAX_SEATS, MIN_SEATS, TURN_CLOCKS, Game, Lobby, Seat
from games.services import announce
from games.services.lobbies import MAX_NAME, create_game


def table_open(
    *,
    name: str,
    players: list[tuple[object, str]],
    is_public: bool,
    end_score: int,
    double_on_tie: bool,
    final_reveal_clears_columns: bool,
    turn_clock: int,
    disconnect_grace: int,
    rated: bool,
) -> Game:
    """Start a game for ``players`` ((user or ``None``, bot level) in seat order) in a new
    lobby with these rules and no rematch, the turn clock on (one of TURN_CLOCKS but 0). Takes
    no lock: it only inserts rows. Refuses a seat count or clock out of range."""
    if not MIN_SEATS <= len(players) <= MAX_SEATS:
        raise InvalidLobby()
    if turn_clock not in TURN_CLOCKS or not turn_clock:
        raise InvalidLobby()
    with transaction.atomic():
        lobby = Lobby.objects.create(
            name=name[:MAX_NAME],
            host=None,
            seat_count=len(players),
            is_public=is_public,
            end_score=end_score,
            double_on_tie=double_on_tie,
            final_reveal_clears_columns=final_reveal_clears_columns,
            disconnect_grace=disconnect_grace,
            turn_clock=turn_clock,
            rated=rated,
            offers_rematch=False,
            status=Lobby.Status.PLAYING,
        )
        Seat.objects.bulk_create(
            Seat(lobby=lobby, index=i, user=user, bot_level=level)
            for i, (user, level) in enumerate(players)
        )
        game = create_game(lobby, players)
        lobby.game = game
        lobby.save(update_fields=["game"])
        announce.lobby(lobby.pk)
    return game


def room_open(*, name: str, is_public: bool) -> Lobby:
    """A lobby that is only a chat room (chat.services posts in it, moderated as any other):
    no seats, no game, closed from the start so that no list shows it. Private ones are read
    with their invite code."""
    return Lobby.objects.create(
        name=name[:MAX_NAME],
        host=None,
        seat_count=MIN_SEATS,
        is_public=is_public,
        status=Lobby.Status.CLOSED,
    )
