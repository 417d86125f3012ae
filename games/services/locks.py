"""The only place that takes a lobby or game row lock, in the one order of the whole site:
Lobby, then Game, then GamePlayer (and the rows of other apps after them).

Every lock is FOR NO KEY UPDATE: no service changes a key, and such a lock does not hold up
the foreign-key check of a row inserted elsewhere that refers to the locked one (a chat post
in a game). A move takes no lock: its conditional write (games.services.play) decides it;
when it ends the game it writes the lobby first, keeping the order. Call inside a transaction.
"""

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from core.errors import NotFound
from games.models import Game, Lobby


def _locked(model, **options):
    return model.objects.select_for_update(no_key=True, of=("self",), **options)


def lobby(lobby_id: int) -> Lobby:
    found = _locked(Lobby).filter(pk=lobby_id).first()
    if found is None:
        raise NotFound(_("There is no such lobby."))
    return found


def game(game_id: int) -> Game:
    """Game ``game_id``, its lobby's settings read with it (presence.seats_of)."""
    found = _locked(Game).select_related("lobby").filter(pk=game_id).first()
    if found is None:
        raise NotFound(_("There is no such game."))
    return found


def lobby_and_game(game_id: int) -> tuple[Lobby | None, Game]:
    """Game ``game_id`` and its lobby (``None`` if gone), the lobby locked first."""
    found = _locked(Lobby).filter(games=game_id).first()
    return found, game(game_id)


def due_game(game_id: int, now) -> Game | None:
    """For the bot runner: game ``game_id`` with its lobby, both locked, if it is playing and
    due at ``now``; ``None`` when another runner or a service holds either (skip locked) or
    it moved on."""
    if _locked(Lobby, skip_locked=True).filter(games=game_id).first() is None:
        return None
    rows = _locked(Game, skip_locked=True).select_related("lobby")
    return rows.filter(pk=game_id, status=Game.Status.PLAYING, bot_due_at__lte=now).first()


def user(user_id: int) -> None:
    """Hold a user's row: their requests that count their tables run one at a time."""
    get_user_model().objects.select_for_update(no_key=True).filter(pk=user_id).first()
