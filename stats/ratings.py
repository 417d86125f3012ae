"""Player ratings with OpenSkill (Plackett-Luce): humans only, in games with at least two."""

from openskill.models import PlackettLuce

from accounts import services as accounts_services
from stats import recording

MODEL = PlackettLuce()


def game_finished(*, game, players, **kwargs) -> None:
    """Receiver of games.signals.game_finished: rate its human players (its lobby rated)."""
    if not game.lobby.rated:
        return
    totals = {p.user_id: p.total for p in players if p.user_id is not None}
    rate_finished_game(totals_by_user=totals, game_id=game.pk)


def rate_finished_game(*, totals_by_user: dict[int, int], game_id: int | None = None) -> None:
    """Rate the users of ``totals_by_user`` (user id -> final total, lower is better) and keep
    the snapshots of ``game_id``."""
    if len(totals_by_user) < 2:
        return

    def rate(users):
        teams = [[MODEL.rating(mu=u.rating_mu, sigma=u.rating_sigma)] for u in users]
        ranks = [totals_by_user[u.pk] for u in users]
        return [(new.mu, new.sigma) for [new] in MODEL.rate(teams, ranks=ranks)]

    changes = accounts_services.user_ratings_update(user_ids=list(totals_by_user), rate=rate)
    if game_id is not None:
        recording.ratings_changed(game_id=game_id, changes=changes)
