"""A player deletes their own account: its rating, statistics, chat and reports go; its games
stay under the name it played with, its seats pass to bots (games.receivers)."""

from django.db import transaction

from accounts.models import User


def may_delete_self(user: User) -> bool:
    return not (user.is_staff or user.is_superuser)


def account_delete(user: User) -> None:
    """Delete ``user``'s account for good (the caller checked the password and the staff)."""
    with transaction.atomic():
        User.objects.get(pk=user.pk).delete()
