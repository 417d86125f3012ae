"""A player deletes their own account (the settings page's "Delete my account").

The account, its rating, statistics, chat messages, mutes and reports go; the games it played
stay under the name it played with (``GamePlayer.name``), which stays taken while a game shows
it. Its seat in a running game passes to the medium bot, its open lobbies as if it had left
(``games.receivers``), and its open sockets close. Staff accounts are deleted in the admin.
"""

from django.db import transaction

from accounts.models import User


def may_delete_self(user: User) -> bool:
    return not (user.is_staff or user.is_superuser)


def account_delete(user: User) -> None:
    """Delete ``user``'s account for good (the caller checked the password and the staff)."""
    with transaction.atomic():
        User.objects.get(pk=user.pk).delete()
