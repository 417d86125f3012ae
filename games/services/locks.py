"""The only place that takes a lobby, game or player-count lock, in the site's one order
(core.locks): Lobby, then Game, then the user. Call inside a transaction."""

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from core.errors import found
from core.locks import hold
from games.models import Game, Lobby


def _locked(model, **options):
    return hold(model.objects.all(), **options)


def lobby(lobby_id: int) -> Lobby:
    return found(_locked(Lobby).filter(pk=lobby_id).first(), _("There is no such lobby."))


def game(game_id: int) -> Game:
    game = _locked(Game).select_related("lobby").filter(pk=game_id).first()
    return found(game, _("There is no such game."))


def lobby_and_game(game_id: int) -> tuple[Lobby | None, Game]:
    """Game ``game_id`` and its lobby (``None`` if gone), the lobby locked first."""
    return _locked(Lobby).filter(games=game_id).first(), game(game_id)


def due_game(game_id: int, now) -> Game | None:
    """Game ``game_id`` and its lobby, both locked, if playing and due at ``now``; ``None`` when
    either is held elsewhere (skip locked) or it moved on."""
    if _locked(Lobby, skip_locked=True).filter(games=game_id).first() is None:
        return None
    rows = _locked(Game, skip_locked=True).select_related("lobby")
    return rows.filter(pk=game_id, status=Game.Status.PLAYING, bot_due_at__lte=now).first()


def user(user_id: int) -> None:
    """Hold a user's row: their requests that count their tables run one at a time."""
    hold(get_user_model().objects.filter(pk=user_id)).first()
