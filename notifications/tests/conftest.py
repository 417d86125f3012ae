from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone, translation

from games import signals
from games.models import Game, GamePlayer
from games.tests.helpers import start_game
from notifications import outbox
from notifications.models import Outbox


@pytest.fixture(autouse=True)
def _notifications_on(settings):
    """E-mails queued and sent (the project's tests turn them off), links to a known site,
    messages read in English, the runner's digest memo cleared."""
    settings.SKYJO_NOTIFICATIONS = True
    settings.SKYJO_SITE_URL = "https://skyjo.example/"
    outbox._digest_day = None
    with translation.override("en"):
        yield


@pytest.fixture
def game(alice, bob):
    """A correspondence game (2 days per move) between alice and bob, its start's e-mails
    (both are to reveal) left out: each test sends the signals it needs."""
    game = start_game(alice, bob, move_days=2)
    Outbox.objects.all().delete()
    return game


def wait(game: Game, *users, signal=signals.turn_waits, days: int = 2) -> dict:
    """As the games app does: mark the game waiting for ``users`` and send ``signal`` inside
    the step's transaction; returns the deadlines sent."""
    now = timezone.now()
    with transaction.atomic():
        Game.objects.filter(pk=game.pk).update(turn_started_at=now)
        GamePlayer.objects.filter(game=game).update(waiting=False)
        GamePlayer.objects.filter(game=game, user__in=users).update(waiting=True)
        game.refresh_from_db()
        deadlines = {user.pk: now + timedelta(days=days) for user in users}
        signal.send(Game, game=game, deadlines=deadlines)
    return deadlines
