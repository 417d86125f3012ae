"""Player ratings with OpenSkill (Plackett-Luce): humans only, in games with at least two. A
correspondence game moves the correspondence rating, a live game the live one (kept apart)."""

from openskill.models import PlackettLuce

from accounts import services as accounts_services
from accounts.models import User
from stats import recording

MODEL = PlackettLuce()
LIVE, CORRESPONDENCE = "live", "correspondence"


def game_finished(*, game, players, **kwargs) -> None:
    """Receiver of games.signals.game_finished: rate its human players (its lobby rated), a
    forfeited seat below every other."""
    if not game.lobby.rated:
        return
    humans = [p for p in players if p.user_id is not None]
    rate_finished_game(
        totals_by_user={p.user_id: p.total for p in humans},
        forfeited={p.user_id for p in humans if p.forfeited},
        game_id=game.pk,
        kind=CORRESPONDENCE if game.lobby.is_correspondence else LIVE,
    )


def ranks(totals_by_user: dict[int, int], forfeited=frozenset()) -> dict[int, int]:
    """{user id: rank} (1 best, ties share one): by total (lower is better), every user of
    ``forfeited`` below all the others, sharing the last rank whatever their totals."""
    keys = {
        pk: (pk in forfeited, 0 if pk in forfeited else total)
        for pk, total in totals_by_user.items()
    }
    order = sorted(set(keys.values()))
    return {pk: 1 + order.index(key) for pk, key in keys.items()}


def rate_finished_game(
    *,
    totals_by_user: dict[int, int],
    forfeited=frozenset(),
    game_id: int | None = None,
    kind: str = LIVE,
) -> None:
    """Rate the users of ``totals_by_user`` (user id -> final total, lower is better; those of
    ``forfeited`` last) in their ``kind`` rating and keep the snapshots of ``game_id``."""
    if len(totals_by_user) < 2:
        return
    by_user = ranks(totals_by_user, forfeited)
    mu_field, sigma_field, _ = User.RATING_FIELDS[kind]

    def rate(users):
        teams = [
            [MODEL.rating(mu=getattr(u, mu_field), sigma=getattr(u, sigma_field))] for u in users
        ]
        rated = MODEL.rate(teams, ranks=[by_user[u.pk] for u in users])
        return [(new.mu, new.sigma) for [new] in rated]

    changes = accounts_services.user_ratings_update(
        user_ids=list(totals_by_user), rate=rate, kind=kind
    )
    if game_id is not None:
        recording.ratings_changed(game_id=game_id, changes=changes, kind=kind)
