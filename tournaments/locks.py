"""The tournament row lock. In the site's one lock order (core.locks) it comes after the games'
rows and the users': a game that ends locks its lobby and game, rates its players, then
(games.signals) locks the tournament. Holding it, a step only inserts games."""

from django.utils.translation import gettext_lazy as _

from core.errors import NotFound
from core.locks import hold
from tournaments.models import Tournament


def _locked(**options):
    return hold(Tournament.objects.all(), **options)


def tournament(tournament_id: int) -> Tournament:
    found = _locked().filter(pk=tournament_id).first()
    if found is None:
        raise NotFound(_("There is no such tournament."))
    return found


def due(tournament_id: int) -> Tournament | None:
    """For a tick: the tournament locked, or ``None`` when another process holds it."""
    return _locked(skip_locked=True).filter(pk=tournament_id).first()
