"""Player ratings with OpenSkill (Plackett-Luce), a multiplayer model that handles ties.

Only human players are rated, and only in games with at least two of them: a bot's strength is
fixed, so a game against bots alone says little about the player's standing among people.
"""

from django.contrib.auth import get_user_model
from openskill.models import PlackettLuce

from stats import recording

MODEL = PlackettLuce()


def rate_finished_game(*, totals_by_user: dict[int, int], game_id: int | None = None) -> None:
    """Update the ratings of the users in ``totals_by_user`` (user id -> final total), and
    keep each one's before and after as a snapshot of ``game_id`` (stats.recording).

    A lower total ranks better; equal totals are ties. Call inside the transaction that
    finishes the game: the user rows are locked so that two games ending at once both count.
    The lock is ``FOR NO KEY UPDATE``: the statistics rows this transaction wrote before hold
    a key-share lock on the same users (their foreign keys), which a plain ``FOR UPDATE`` of
    another game ending at once would wait for while holding its own: a deadlock.
    """
    if len(totals_by_user) < 2:
        return
    users = list(
        get_user_model()
        .objects.select_for_update(no_key=True)
        .filter(pk__in=totals_by_user)
        .order_by("pk")
    )
    teams = [[MODEL.rating(mu=u.rating_mu, sigma=u.rating_sigma)] for u in users]
    ranks = [totals_by_user[u.pk] for u in users]
    changes = []
    for user, [new] in zip(users, MODEL.rate(teams, ranks=ranks), strict=True):
        changes.append((user, user.rating_mu, user.rating_sigma))
        user.rating_mu, user.rating_sigma = new.mu, new.sigma
        user.rated_games += 1
    get_user_model().objects.bulk_update(users, ["rating_mu", "rating_sigma", "rated_games"])
    if game_id is not None:
        recording.ratings_changed(game_id=game_id, changes=changes)
