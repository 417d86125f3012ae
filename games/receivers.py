"""A deleted account (the admin's) leaves its open lobbies as if it had left them
(``services.lobby_leave``): the next player hosts, or the lobby closes when it sat alone. The
lobbies where games were played keep them (``Lobby.host`` is set to none): the other players'
histories, statistics and replays are theirs."""

import contextlib

from django.db.models.signals import pre_delete

from accounts.models import User
from core.errors import ServiceError
from games import services
from games.models import Lobby, Seat


def connect() -> None:
    """Connect the handler (GamesConfig.ready)."""
    pre_delete.connect(leave_open_lobbies, sender=User, dispatch_uid="games.deleted_account")


def leave_open_lobbies(sender, instance, **kwargs) -> None:
    seated = Seat.objects.filter(user=instance, lobby__status=Lobby.Status.OPEN)
    for lobby_id in seated.values_list("lobby_id", flat=True):
        # Started or closed meanwhile: its games stay as they are.
        with contextlib.suppress(ServiceError):
            services.lobby_leave(lobby_id=lobby_id, user=instance)
