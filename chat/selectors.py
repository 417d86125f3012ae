"""Reading the chat: what a given reader may see."""

from __future__ import annotations

from django.db.models import F, Q
from django.utils import timezone

from chat.models import Message, Mute, Silence

SHOWN = 50  # messages on a page load, per channel


def active_silence(user_id: int, now=None) -> Silence | None:
    """The silence in force for this user (the longest, if several), or ``None``."""
    now = now or timezone.now()
    silences = Silence.objects.filter(user_id=user_id, lifted_at__isnull=True).filter(
        Q(until__isnull=True) | Q(until__gt=now)
    )
    return silences.order_by(F("until").desc(nulls_first=True)).first()


def muted_ids(user) -> set[int]:
    if not user.is_authenticated:
        return set()
    return set(Mute.objects.filter(muter_id=user.pk).values_list("muted_id", flat=True))


def messages_for(
    *, user, game_id=None, lobby_id=None, channel=Message.Channel.PLAYERS, muted=None
) -> list[Message]:
    """The last ``SHOWN`` messages of one channel of a game or lobby, oldest first, but hidden
    ones and those ``user`` muted. Who may read it is the caller's check."""
    if muted is None:
        muted = muted_ids(user)
    where = {"game_id": game_id} if game_id is not None else {"lobby_id": lobby_id}
    rows = (
        Message.objects.filter(channel=channel, hidden_at__isnull=True, **where)
        .exclude(author_id__in=muted)
        .select_related("author")
        .order_by("-id")[:SHOWN]
    )
    return list(reversed(rows))
