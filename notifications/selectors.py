"""Reads of the notifications app: a player's preferences, the outbox rows due."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import presence
from games.models import Game, GamePlayer
from notifications import tokens
from notifications.errors import BadUnsubscribeLink, UsedUnsubscribeLink
from notifications.models import Outbox, Preference, PushSubscription


def preference_of(user_id: int) -> Preference:
    """The player's preferences; the defaults (unsaved) if they never changed them."""
    return Preference.objects.filter(user_id=user_id).first() or Preference(user_id=user_id)


def preferences_of(user_ids) -> dict[int, Preference]:
    """The preferences of each of ``user_ids`` (the defaults, unsaved, for those without)."""
    found = {p.user_id: p for p in Preference.objects.filter(user_id__in=user_ids)}
    return {uid: found.get(uid) or Preference(user_id=uid) for uid in user_ids}


def mailed_lately(*, user_id: int, game_id: int, since) -> bool:
    """Whether an e-mail about ``game_id`` was sent or queued for the player since ``since``."""
    live = [Outbox.State.PENDING, Outbox.State.SENDING, Outbox.State.SENT]
    rows = Outbox.objects.filter(user_id=user_id, game_id=game_id, created_at__gte=since)
    return rows.filter(state__in=live).exists()


def due(now, limit: int) -> list[Outbox]:
    """Rows to look at now, oldest due first: pending ones due, and claims that lapsed
    (``sending`` past their ``next_try_at``). One query on the (state, next_try_at) index."""
    states = [Outbox.State.PENDING, Outbox.State.SENDING]
    rows = Outbox.objects.select_related("user").filter(state__in=states, next_try_at__lte=now)
    return list(rows.order_by("next_try_at")[:limit])


def waits_for(*, game_id: int, user_id: int) -> bool:
    """Whether the correspondence game ``game_id`` still waits for the player."""
    return GamePlayer.objects.filter(
        game_id=game_id, user_id=user_id, waiting=True, game__status=Game.Status.PLAYING
    ).exists()


def page_open(*, game_id: int, user_id: int, now=None) -> bool:
    """Whether the player has a socket of the game's page open now: counted, and alive within
    the heartbeats a crashed server's sockets are trusted for (games.presence)."""
    now = now or timezone.now()
    alive = now - timedelta(seconds=presence.STALE_HEARTBEATS * settings.SKYJO_HEARTBEAT)
    return GamePlayer.objects.filter(
        game_id=game_id, user_id=user_id, connections__gt=0, last_seen__gte=alive
    ).exists()


def digest_users() -> list[int]:
    """The players who chose the daily digest and for whom a game waits now."""
    waiting = GamePlayer.objects.filter(waiting=True, game__status=Game.Status.PLAYING)
    prefs = Preference.objects.filter(digest=True, user_id__in=waiting.values("user_id"))
    return list(prefs.values_list("user_id", flat=True))


def unsubscribe_target(token: str) -> tuple[int, str]:
    """``(user_id, kind)`` of an unsubscribe link that would work now; else the
    ``BadUnsubscribeLink`` that :func:`notifications.services.unsubscribe` would raise."""
    user_id, kind, generation = tokens.read(token)
    pref = Preference.objects.filter(user_id=user_id).first()
    if pref is None:
        if not get_user_model().objects.filter(pk=user_id).exists():
            raise BadUnsubscribeLink()
        pref = Preference(user_id=user_id)
    if pref.token_generation != generation:
        raise UsedUnsubscribeLink()
    return user_id, kind


def game_with_lobby(game_id: int) -> Game | None:
    return Game.objects.select_related("lobby").filter(pk=game_id).first()


def push_endpoints(user_id: int) -> list[str]:
    """The push endpoints of ``user_id``'s subscribed browsers."""
    return list(PushSubscription.objects.filter(user_id=user_id).values_list("endpoint", flat=True))
