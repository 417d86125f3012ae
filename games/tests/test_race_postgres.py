"""Two submissions racing for the same turn: exactly one is applied (needs PostgreSQL's row
locks; scripts/test runs this suite on PostgreSQL too)."""

import threading

import pytest
from django.db import connection, connections

from core.errors import ServiceError, StaleVersion
from games import services
from games.models import Move
from games.tests.helpers import restore, reveal_all, start_game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="row locks need PostgreSQL: scripts/test runs this on PostgreSQL (DATABASE_URL)",
    ),
]


def race(calls):
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=10)
            outcomes[i] = call()
        except ServiceError as exc:
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.mark.parametrize("attempt", range(5))
def test_two_submissions_for_one_turn_apply_exactly_once(alice, bob, attempt):
    game = start_game(alice, bob)
    reveal_all(game, [alice, bob])
    player = [alice, bob][restore(game).current]
    game.refresh_from_db()
    version = game.version
    actions = [{"take": "deck"}, {"take": "discard", "swap": 4}]
    outcomes = race(
        [
            lambda a=a: services.game_apply_action(
                game_id=game.pk, user=player, action=a, version=version
            )
            for a in actions
        ]
    )
    applied = [o for o in outcomes if not isinstance(o, Exception)]
    refused = [o for o in outcomes if isinstance(o, StaleVersion)]
    assert len(applied) == 1 and len(refused) == 1, outcomes
    game.refresh_from_db()
    assert game.version == version + 1
    assert Move.objects.filter(game=game, version=version + 1).count() == 1


def test_simultaneous_reveals_are_all_applied(alice, bob):
    game = start_game(alice, bob)
    outcomes = race(
        [
            lambda u=u, p=p: services.game_apply_action(
                game_id=game.pk, user=u, action={"reveal": p}, version=0
            )
            for u, p in ((alice, 0), (alice, 1), (bob, 0), (bob, 1))
        ]
    )
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    game.refresh_from_db()
    assert game.version == 4 and game.phase == "play"
