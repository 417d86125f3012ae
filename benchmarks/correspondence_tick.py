"""The bot runner's tick with many open correspondence games (docs/correspondence.md): seeds
``--games`` games of two players whose deadlines are days away (rows written in bulk, as the
games services would leave them), then times ``--ticks`` whole ticks of the runner
(``web.runner._tick``) and the due-games query alone, and prints the due query's plan. Run it
once with ``--games 0`` for the baseline; the seeded rows are deleted at the end."""

import argparse
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_site.settings")

PREFIX = "corr-bench"
BATCH = 2000


def seed(count: int, rng: random.Random) -> None:
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from games import engine
    from games.models import Game, GamePlayer, Lobby

    users = [
        get_user_model().objects.get_or_create(username=f"{PREFIX}-{i}")[0] for i in range(200)
    ]
    state = engine.Game(["a", "b"], engine.Rules(), seed=1)
    snapshot = engine.to_snapshot(state)
    now = timezone.now()
    for start in range(0, count, BATCH):
        size = min(BATCH, count - start)
        with transaction.atomic():
            lobbies = Lobby.objects.bulk_create(
                Lobby(
                    name=f"{PREFIX} {start + i}",
                    seat_count=2,
                    move_days=3,
                    status=Lobby.Status.PLAYING,
                )
                for i in range(size)
            )
            games = Game.objects.bulk_create(
                Game(
                    lobby=lobby,
                    seed=i,
                    snapshot=snapshot,
                    phase=state.phase,
                    turn_started_at=now,
                    bot_due_at=now + timedelta(hours=rng.uniform(12, 72)),
                )
                for i, lobby in enumerate(lobbies)
            )
            GamePlayer.objects.bulk_create(
                GamePlayer(
                    game=game,
                    seat=seat,
                    user=rng.choice(users),
                    name=f"p{seat}",
                    waiting=seat == 0,
                )
                for game in games
                for seat in (0, 1)
            )


def unseed() -> None:
    from django.contrib.auth import get_user_model

    from games.models import Lobby

    seeded = Lobby.objects.filter(name__startswith=f"{PREFIX} ")
    while ids := list(seeded.values_list("pk", flat=True)[:BATCH]):
        Lobby.objects.filter(pk__in=ids).delete()
    get_user_model().objects.filter(username__startswith=f"{PREFIX}-").delete()


def timed(call, rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--ticks", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from benchmarks.relay_clients import percentile
    from games import autoplay
    from games.models import Game
    from web import runner

    unseed()
    started = time.perf_counter()
    seed(args.games, random.Random(args.seed))
    seeding = time.perf_counter() - started
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE games_game; ANALYZE games_gameplayer; ANALYZE games_lobby")
    try:
        open_games = Game.objects.filter(status=Game.Status.PLAYING).count()

        def tick():
            runner._tick()
            runner._mail_tick()

        tick()  # warm: connections, caches
        ticks = timed(tick, args.ticks)
        due = timed(autoplay.play_due_turns, args.ticks)
        with CaptureQueriesContext(connection) as queries:
            tick()
        with CaptureQueriesContext(connection) as due_queries:
            autoplay.play_due_turns()
        with connection.cursor() as cursor:
            explain = "EXPLAIN ANALYZE " if connection.vendor == "postgresql" else "EXPLAIN "
            cursor.execute(explain + due_queries.captured_queries[0]["sql"])
            plan = "\n".join(" ".join(str(c) for c in row) for row in cursor.fetchall())
    finally:
        unseed()
    print(f"{connection.vendor}: {open_games} open games ({args.games} seeded in {seeding:.1f} s)")
    print(
        f"whole tick over {args.ticks}: p50 {percentile(ticks, 50):.2f} ms, "
        f"p95 {percentile(ticks, 95):.2f} ms, {len(queries.captured_queries)} statements"
    )
    print(
        f"due games alone: p50 {percentile(due, 50):.2f} ms, p95 {percentile(due, 95):.2f} ms, "
        f"{len(due_queries.captured_queries)} statement"
    )
    print(plan)


if __name__ == "__main__":
    main()
