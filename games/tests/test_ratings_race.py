"""Two games with a player in common ending at once: both are rated, neither waits for the
other in a circle (needs PostgreSQL's row locks; scripts/test runs this suite on PostgreSQL)."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections, transaction

from games.tests.helpers import start_game
from stats import ratings

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL: scripts/test runs this on PostgreSQL (DATABASE_URL)",
    ),
]


def test_two_games_ending_at_once_with_a_shared_player_are_both_rated(alice, bob, charlie):
    """Each game's end first writes rows that refer to its players (statistics, as
    ``services._save_scores`` does: inserting such a row takes a key-share lock on the user,
    done here directly), then rates them. A plain ``FOR UPDATE`` of the users would wait for the other game's key-share
    lock while holding its own: PostgreSQL would break the deadlock by failing one game's end."""
    games = [start_game(alice, bob), start_game(alice, charlie)]
    users = connection.ops.quote_name(get_user_model()._meta.db_table)
    both_wrote = threading.Barrier(2)
    errors = []

    def end(game, totals):
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:  # what the insert of such a row locks
                    cursor.execute(
                        f"SELECT 1 FROM {users} WHERE id = ANY(%s) FOR KEY SHARE", [list(totals)]
                    )
                both_wrote.wait(timeout=10)
                ratings.rate_finished_game(totals_by_user=totals, game_id=None)
        except Exception as exc:  # noqa: BLE001 - the test reports what failed
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=end, args=(games[0], {alice.pk: 10, bob.pk: 20})),
        threading.Thread(target=end, args=(games[1], {alice.pk: 30, charlie.pk: 5})),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert errors == []
    alice.refresh_from_db()
    assert alice.rated_games == 2
