"""The tournament row lock. In the site's one lock order (games.services.locks) it comes after
the games' rows: a game that ends locks its lobby and game, then (games.signals) the tournament.
So nothing holding a tournament's lock takes a lobby's or game's: opening a table only inserts.
"""

from django.utils.translation import gettext_lazy as _

from core.errors import NotFound
from tournaments.models import Tournament


def _locked(**options):
    return Tournament.objects.select_for_update(no_key=True, of=("self",), **options)


def tournament(tournament_id: int) -> Tournament:
    found = _locked().filter(pk=tournament_id).first()
    if found is None:
        raise NotFound(_("There is no such tournament."))
    return found


def due(tournament_id: int) -> Tournament | None:
    """For a tick: the tournament locked, or ``None`` when another process holds it."""
    return _locked(skip_locked=True).filter(pk=tournament_id).first()
