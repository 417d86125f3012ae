"""accounts.services.user_ratings_update writes the kind of rating it is given, and only it:
the live and the correspondence ratings are kept apart."""

import pytest

from accounts import services
from accounts.models import User

pytestmark = pytest.mark.django_db


def update(kind, alice, bob):
    def rate(users):
        return [(30.0, 5.0) if u.pk == alice.pk else (20.0, 6.0) for u in users]

    return services.user_ratings_update(user_ids=[bob.pk, alice.pk], rate=rate, kind=kind)


def test_a_correspondence_update_leaves_the_live_rating_alone(alice, bob):
    changes = update("correspondence", alice, bob)
    assert [(u.pk, mu, sigma) for u, mu, sigma in changes] == sorted(
        [(alice.pk, 25.0, 25.0 / 3), (bob.pk, 25.0, 25.0 / 3)]
    )
    alice.refresh_from_db()
    assert (alice.corr_rating_mu, alice.corr_rating_sigma, alice.corr_rated_games) == (30, 5, 1)
    assert (alice.rating_mu, alice.rating_sigma, alice.rated_games) == (25, 25 / 3, 0)
    assert alice.corr_rating == 1000 + 40 * 15 and alice.corr_rating_is_provisional
    assert alice.rating == 1000 and alice.rating_is_provisional


def test_a_live_update_leaves_the_correspondence_rating_alone(alice, bob):
    update("live", alice, bob)
    bob.refresh_from_db()
    assert (bob.rating_mu, bob.rating_sigma, bob.rated_games) == (20, 6, 1)
    assert (bob.corr_rating_mu, bob.corr_rating_sigma, bob.corr_rated_games) == (25, 25 / 3, 0)


def test_the_provisional_mark_goes_after_five_correspondence_games(alice):
    alice.corr_rated_games = User.PROVISIONAL_GAMES
    assert not alice.corr_rating_is_provisional and alice.rating_is_provisional
