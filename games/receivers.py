"""A deleted account leaves its open lobbies as if it had left them (``services.lobby_leave``);
the lobbies where games were played keep it as no one."""

import contextlib

from django.db.models.signals import pre_delete
from django.dispatch import receiver

from accounts.models import User
from core.errors import ServiceError
from games import services
from games.models import Lobby, Seat


@receiver(pre_delete, sender=User, dispatch_uid="games.deleted_account")
def leave_open_lobbies(sender, instance, **kwargs) -> None:
    seated = Seat.objects.filter(user=instance, lobby__status=Lobby.Status.OPEN)
    for lobby_id in seated.values_list("lobby_id", flat=True):
        with contextlib.suppress(ServiceError):
            services.lobby_leave(lobby_id=lobby_id, user=instance)
