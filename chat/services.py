"""Every write of the chat, one transaction each, published after the commit. A refused post
raises a ``chat.errors.ChatError``; the audit log is the caller's (moderation.services)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from accounts.models import User
from chat import publish
from chat.errors import (
    ChatEmpty,
    ChatNotAllowed,
    ChatOff,
    ChatRateLimited,
    ChatSilenced,
    ChatTooLong,
)
from chat.models import MAX_LENGTH, Message, Mute, Silence
from chat.quick import QUICK, QUICK_ENGLISH
from chat.selectors import active_silence
from core.errors import NotFound, found
from core.locks import hold
from core.text import has_nothing_to_see, one_line
from core.when import when
from games.models import Game, GamePlayer
from games.selectors import lobby_for_user, may_watch


def chat_post(
    *,
    user,
    text: str = "",
    quick: str = "",
    game_id: int | None = None,
    lobby_id: int | None = None,
    invite_code: str | None = None,
) -> Message:
    """Post ``text`` (or the quick message ``quick``) in a game or a lobby."""
    if quick:
        if quick not in QUICK:
            raise ChatEmpty()
        text = QUICK_ENGLISH[quick]
    text = one_line(text or "")
    if has_nothing_to_see(text):
        raise ChatEmpty()
    if len(text) > MAX_LENGTH:
        raise ChatTooLong(
            _("A message may hold at most %(max)s characters (yours has %(length)s).")
            % {"max": MAX_LENGTH, "length": len(text)}
        )
    with transaction.atomic():
        # The author's row, locked: one author's posts are counted one at a time.
        author = hold(User.objects.filter(pk=user.pk)).first()
        if (
            author is None
            or not author.is_active
            or (author.is_banned and not author.ban_has_ended)
        ):
            raise ChatNotAllowed()
        if not author.chat_enabled:
            raise ChatOff()
        now = timezone.now()
        silence = active_silence(author.pk, now)
        if silence is not None:
            raise ChatSilenced(silenced_message(silence))
        channel, where = _where(author, game_id=game_id, lobby_id=lobby_id, invite=invite_code)
        _check_rate(author, now)
        lobby, removed = where.get("lobby"), []
        if lobby is not None and not lobby.is_public:  # their sockets close on the message
            removed = list(lobby.removed_users.values_list("pk", flat=True))
        message = Message.objects.create(
            author=author, channel=channel, text=text, quick=quick, created_at=now, **where
        )
        transaction.on_commit(lambda: publish.message_posted(message, removed=removed))
    return message


def _where(author, *, game_id, lobby_id, invite) -> tuple[str, dict]:
    if (game_id is None) == (lobby_id is None):
        raise ChatNotAllowed()
    if game_id is not None:
        game = found(Game.objects.select_related("lobby").filter(pk=game_id).first())
        if GamePlayer.objects.filter(game=game, user_id=author.pk).exists():
            return Message.Channel.PLAYERS, {"game": game}
        if not may_watch(game.lobby, author, invite):
            raise NotFound()
        return Message.Channel.SPECTATORS, {"game": game}
    lobby = lobby_for_user(lobby_id=lobby_id, user=author, invite_code=invite)
    return Message.Channel.PLAYERS, {"lobby": lobby}


def _check_rate(author, now) -> None:
    if not settings.RATELIMIT_ENABLE:
        return
    count, seconds = settings.SKYJO_CHAT_RATE, settings.SKYJO_CHAT_PERIOD
    recent = Message.objects.filter(
        author=author, created_at__gt=now - timedelta(seconds=seconds)
    ).count()
    if recent >= count:
        raise ChatRateLimited(
            ngettext_lazy(
                "Too many messages: at most %(count)s in %(seconds)s seconds. "
                "Wait a moment, then send it again.",
                "Too many messages: at most %(count)s in %(seconds)s seconds. "
                "Wait a moment, then send it again.",
                count,
            )
            % {"count": count, "seconds": seconds}
        )


def silenced_message(silence: Silence) -> str:
    values = {"reason": silence.reason, "until": silence.until and when(silence.until)}
    if silence.until is None:
        return _("A moderator has silenced you in the chat for good: %(reason)s") % values
    return _("A moderator has silenced you in the chat until %(until)s: %(reason)s") % values


def message_hide(*, message_id: int, by) -> Message:
    """Hide a message (a moderator's act): gone from every open page, and from every load."""
    with transaction.atomic():
        message = hold(Message.objects.filter(pk=message_id)).get()
        if message.hidden_at is None:
            message.hidden_at = timezone.now()
            message.hidden_by = by
            message.save(update_fields=["hidden_at", "hidden_by"])
        transaction.on_commit(lambda: publish.message_hidden(message))
    return message


def user_silence(*, user, until, reason: str, by) -> Silence:
    """Silence ``user`` in every chat until ``until`` (``None``: for good), for ``reason``."""
    with transaction.atomic():
        return Silence.objects.create(user=user, until=until, reason=reason, by=by)


def silence_lift(*, user, by) -> int:
    with transaction.atomic():
        now = timezone.now()
        return Silence.objects.filter(user=user, lifted_at__isnull=True).update(
            lifted_at=now, lifted_by=by
        )


def mute_set(*, muter, muted, on: bool) -> None:
    """``muter`` mutes (``on``) or unmutes ``muted`` on every page of theirs, open or later."""
    if muter.pk == muted.pk:
        return
    with transaction.atomic():
        if on:
            Mute.objects.get_or_create(muter=muter, muted=muted)
        else:
            Mute.objects.filter(muter=muter, muted=muted).delete()
        transaction.on_commit(lambda: publish.prefs_changed(muter.pk))


def chat_enable(*, user, enabled: bool) -> None:
    """Turn the chat on or off for ``user`` (all their pages: they neither see nor post)."""
    with transaction.atomic():
        User.objects.filter(pk=user.pk).update(chat_enabled=enabled)
        user.chat_enabled = enabled
        transaction.on_commit(lambda: publish.prefs_changed(user.pk))
