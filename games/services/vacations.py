"""Vacations: a player pauses the clocks of their correspondence games for some days, at most
``settings.SKYJO_VACATION_DAYS`` a calendar year (the days a vacation began in count)."""

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from core.errors import InvalidVacation
from games import publish
from games.models import Game, Vacation
from games.selectors import vacation_days_left, vacation_of
from games.services import locks
from games.services.schedule import game_reschedule


def vacation_start(*, user, days: object, now=None) -> Vacation:
    """Pause ``user``'s correspondence clocks for ``days`` days from now."""
    now = now or timezone.now()
    with transaction.atomic():
        locks.user(user.pk)
        if vacation_of(user, now) is not None:
            raise InvalidVacation(_("You are on vacation already."))
        left = vacation_days_left(user, now)
        if type(days) is not int or not 1 <= days <= left:
            if not left:
                raise InvalidVacation(_("You have no vacation days left this year."))
            message = _("A vacation lasts from 1 to {left} days: the days you have left this year.")
            raise InvalidVacation(format_lazy(message, left=left))
        vacation = Vacation.objects.create(
            user=user, starts_at=now, ends_at=now + timedelta(days=days)
        )
    _clocks_changed(user.pk)
    return vacation


def vacation_end(*, user, now=None) -> None:
    """End ``user``'s vacation now: their clocks run again."""
    now = now or timezone.now()
    with transaction.atomic():
        locks.user(user.pk)
        vacation = vacation_of(user, now)
        if vacation is None:
            raise InvalidVacation(_("You are not on vacation."))
        vacation.ends_at = now
        vacation.save(update_fields=["ends_at"])
    _clocks_changed(user.pk)


def _clocks_changed(user_id: int) -> None:
    """The deadlines of ``user_id``'s correspondence games moved: the runner looks anew."""
    games = Game.objects.filter(
        status=Game.Status.PLAYING, players__user=user_id, lobby__move_days__gt=0
    ).values_list("pk", flat=True)
    for game_id in games:
        game_reschedule(game_id=game_id)
    transaction.on_commit(lambda: publish.turns_changed([user_id]))
