"""Service CPU per applied move, early in a game and late in it, in one process.

Run (SQLite):      env -u DATABASE_URL -u REDIS_URL .venv/bin/python benchmarks/service_cost.py
Run (PostgreSQL):  DATABASE_URL=postgres://postgres@127.0.0.1:5432/skyjo_x .venv/bin/python \
                   benchmarks/service_cost.py

One 4-player game of humans (no bot runner) is played to its end with random legal steps through
``services.game_apply_action``, on a fresh test database (created and dropped here). The clock
(``time.process_time``: this process's CPU, so the database server's own CPU is not in it) covers
the service call only, including what it runs after its commit (publishing to the channel
layer, no socket listening); choosing the step is outside it. The figures are the mean CPU per
move of round 1 and of round ``--late`` (default 8), and the number of moves in each.
"""

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_site.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--late", type=int, default=8, help="the late round to measure")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    settings.SKYJO_AUTOPLAY = False
    settings.RATELIMIT_ENABLE = False
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        per_round = play(args.seed, args.late)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    vendor = connection.vendor
    for number in (1, args.late):
        times = per_round.get(number, [])
        if times:
            mean = statistics.fmean(times) * 1000
            print(f"{vendor}: round {number}: {len(times)} moves, {mean:.2f} ms CPU per move")
        else:
            print(f"{vendor}: round {number}: not reached")


def play(seed: int, late: int) -> dict[int, list[float]]:
    from django.contrib.auth import get_user_model

    from games import selectors, services
    from games.models import Game

    users = [get_user_model().objects.create_user(username=f"p{i}", password="x") for i in range(4)]
    lobby = services.lobby_create(host=users[0], name="bench", seat_count=4, end_score=1000)
    for user in users[1:]:
        services.lobby_join(lobby_id=lobby.pk, user=user)
    game = services.lobby_start(lobby_id=lobby.pk, user=users[0])
    rng = random.Random(seed)
    per_round: dict[int, list[float]] = {}
    while True:
        game = Game.objects.get(pk=game.pk)
        public = selectors.game_state(game=game, seat=None).view
        if game.status != Game.Status.PLAYING or public.round > late:
            return per_round
        if public.phase == "round_over":
            for user in users:
                services.game_set_ready(game_id=game.pk, user=user)
            continue
        if public.phase == "reveal":
            seat = next(s for s, n in enumerate(public.revealed) if n < 2)
        else:
            seat = public.current
        view = selectors.game_state(game=game, seat=seat).view
        action = rng.choice(view.legal_actions()).to_json()
        start = time.process_time()
        services.game_apply_action(
            game_id=game.pk, user=users[seat], action=action, version=game.version
        )
        per_round.setdefault(public.round, []).append(time.process_time() - start)


if __name__ == "__main__":
    main()
