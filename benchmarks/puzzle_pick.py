"""The choice of a player's next puzzle (``puzzles.selectors.next_puzzle``) on the database as
it is (docs/puzzles.md): fill it first with ``manage.py seed_puzzles --count 100000``. A
benchmark player has tried the ``--tried`` puzzles nearest a newcomer's rating (the index walk
must step over them), ``--others`` players ``--tried`` puzzles each near their own ratings
(the attempts table as a site's); the choice is then timed at ``--picks`` ratings around it."""

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_site.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--picks", type=int, default=500)
    parser.add_argument("--tried", type=int, default=2000)
    parser.add_argument("--others", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.db.models import F, Func
    from django.test.utils import CaptureQueriesContext

    from benchmarks.relay_clients import percentile
    from puzzles import selectors
    from puzzles.models import START_MU, Attempt, Puzzle

    rng = random.Random(args.seed)
    total = Puzzle.objects.count()
    users = [
        get_user_model().objects.get_or_create(username=f"puzzle-bench-{i}")[0]
        for i in range(args.others + 1)
    ]
    user = users[0]
    Attempt.objects.filter(user__in=users).delete()
    for i, someone in enumerate(users):
        centre = START_MU if i == 0 else rng.gauss(START_MU, 6)
        nearest = (
            Puzzle.objects.annotate(distance=Func(F("rating") - centre, function="ABS"))
            .order_by("distance")
            .values_list("pk", flat=True)[: args.tried]
        )
        Attempt.objects.bulk_create(
            Attempt(
                user=someone,
                puzzle_id=pk,
                answer="draw",
                solved=False,
                rating_before=0,
                rating_after=0,
            )
            for pk in nearest
        )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE puzzles_puzzle; ANALYZE puzzles_attempt")

    times = []
    for i in range(args.picks):
        rating = START_MU if i % 2 == 0 else rng.gauss(START_MU, 6)
        started = time.perf_counter()
        found = selectors.next_puzzle(user, rating)
        times.append((time.perf_counter() - started) * 1000)
        assert found is not None
    with CaptureQueriesContext(connection) as queries:
        selectors.next_puzzle(user, START_MU)
    (query,) = queries.captured_queries  # one statement
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN ANALYZE " + query["sql"])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    Attempt.objects.filter(user__in=users).delete()
    print(
        f"{connection.vendor}: {total} puzzles, {args.tried} tried by the player "
        f"and by each of {args.others} others"
    )
    print(
        f"next_puzzle over {args.picks} picks: p50 {percentile(times, 50):.2f} ms, "
        f"p95 {percentile(times, 95):.2f} ms, max {max(times):.2f} ms"
    )
    print(plan)


if __name__ == "__main__":
    main()
