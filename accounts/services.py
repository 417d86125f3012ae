"""Moderators' writes to accounts: ban and unban (the admin's actions call these).

Each locks the user's row, saves only the ban columns (``User.ban``/``User.unban``) and returns
whether anything changed. A banned player cannot log in (the reason is shown to them), is
logged out on their next request, and ``User.ban`` is where their open sockets are told to
close (issue 10 item 1).
"""

from django.db import transaction

from accounts.models import User

MAX_REASON = User._meta.get_field("ban_reason").max_length


def user_ban(*, user_id: int, reason: str = "", moderator=None) -> bool:
    """Ban a player with a ``reason`` they will see. A moderator cannot ban themself."""
    if moderator is not None and moderator.pk == user_id:
        return False
    reason = (reason or "").strip()[:MAX_REASON]
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=user_id).first()
        if user is None or (user.is_banned and user.ban_reason == reason):
            return False
        user.ban(reason)
    return True


def user_unban(*, user_id: int) -> bool:
    """Lift a ban."""
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=user_id).first()
        if user is None or not user.is_banned:
            return False
        user.unban()
    return True
