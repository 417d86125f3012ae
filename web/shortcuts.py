"""What the user may see of a game or a lobby, else the 404 of one that is not there."""

from django.http import Http404

from core.errors import NotFound
from games import selectors


def game_or_404(request, game_id: int):
    """``(game, seat)``; ``?invite=`` (the lobby's code) lets an invitee watch a private game."""
    invite_code = request.GET.get("invite")
    try:
        return selectors.game_for_user(game_id=game_id, user=request.user, invite_code=invite_code)
    except NotFound as exc:
        raise Http404(exc.message) from None


def lobby_or_404(request, lobby_id: int, invite_code: str | None = None):
    try:
        return selectors.lobby_for_user(
            lobby_id=lobby_id, user=request.user, invite_code=invite_code
        )
    except NotFound as exc:
        raise Http404(exc.message) from None
