"""A player deletes their own account (the settings page's "Delete my account").

What goes: the account (no more log-in), its rating and statistics page, its
chat messages, mutes and reports. What stays: the games it played, in the other players'
histories, statistics and replays, under the name it played with (``GamePlayer.name``); its
seat in a running game is played by the medium bot, and its open lobbies pass on as if it had
left them (``games.signals``). Its open sockets close (``moderation.signals``).

Its name stays taken while a game shows it (``games.selectors.name_left_in_games``): someone registering it
later would pass for that player in those games' pages and replays.

Staff accounts are deleted by a superuser in the admin: a moderator's audit log entries name
them, and the last superuser could otherwise lock everyone out of the admin.
"""

from django.db import transaction

from accounts.models import User


def may_delete_self(user: User) -> bool:
    return not (user.is_staff or user.is_superuser)


def account_delete(user: User) -> None:
    """Delete ``user``'s account for good (the caller checked the password and the staff)."""
    with transaction.atomic():
        User.objects.get(pk=user.pk).delete()
