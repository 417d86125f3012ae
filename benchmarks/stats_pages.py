"""Answer times of the statistics pages on a seeded database (issue 11's targets).

Run:  DATABASE_URL=postgres://postgres@127.0.0.1:5432/skyjo_stats_bench \\
      .venv/bin/python manage.py seed_games --games 100000 --players 5000 --seed 1
      DATABASE_URL=postgres://postgres@127.0.0.1:5432/skyjo_stats_bench \\
      REDIS_URL=redis://127.0.0.1:6379/5 \\
      nice -n 10 .venv/bin/python benchmarks/stats_pages.py [--requests 200] [--cold]

Uses the database as it is (not a test database). Through Django's test client (the whole
middleware stack and template rendering, no network): the profile of the busiest player (seen
by a visitor, and by a logged-in player; and of the player nearest 300 games), the players
page (page 1, page 50, a name search, logged in, so with the own-rank query), and a finished
game's page (logged in as one of its players). Each is asked ``--requests`` times after 10
warm-up requests; prints p50, p95, max and the queries of one request. The statistics cache
(stats.profile_cache) is the default cache (Redis with ``REDIS_URL``): after the warm-up the
pages are read from it, as a page seen again is; ``--cold`` times every request as the first
one after a change.
"""

import argparse
import itertools
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_site.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument(
        "--only", default="", help="time only the pages whose label contains this text"
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="every request as the first after a change: the statistics cache never answers",
    )
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.db.models import Count
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from stats import profile_cache
    from stats.models import GameResult

    if args.cold:
        # A new fingerprint on every use: every key is new (the entries written expire).
        fresh = itertools.count()
        profile_cache.fingerprint = lambda: f"cold-{os.getpid()}-{next(fresh)}"

    busiest = (
        GameResult.objects.filter(user__isnull=False)
        .values("user_id")
        .annotate(n=Count("id"))
        .order_by("-n")
        .first()
    )
    User = get_user_model()
    player = User.objects.get(pk=busiest["user_id"])
    other = User.objects.exclude(pk=player.pk).order_by("pk").first()
    game = GameResult.objects.filter(user=player).order_by("-finished_at").first()
    regular = (
        GameResult.objects.filter(user__isnull=False)
        .values("user_id", "user__username")
        .annotate(n=Count("id"))
        .filter(n__gte=300)
        .order_by("n")
        .first()
    )
    print(
        f"{GameResult.objects.values('game_id').distinct().count()} finished games, "
        f"{User.objects.count()} users; busiest: {player.username} with {busiest['n']} games"
    )

    visitor = Client(HTTP_HOST="127.0.0.1")
    member = Client(HTTP_HOST="127.0.0.1")
    member.force_login(other)
    own = Client(HTTP_HOST="127.0.0.1")
    own.force_login(player)
    pages = [
        ("profile of the busiest, visitor", visitor, f"/u/{player.username}/"),
        ("profile of the busiest, logged in", member, f"/u/{player.username}/"),
        (f"profile, {regular['n']} games, visitor", visitor, f"/u/{regular['user__username']}/"),
        ("players page 1", member, "/players/"),
        ("players page 50", member, "/players/?page=50"),
        ("players search", member, "/players/?q=p012"),
        ("finished game page", own, f"/games/{game.game_id}/"),
    ]
    print(f"{'page':36} {'p50 ms':>7} {'p95 ms':>7} {'max ms':>7} {'queries':>7}")
    for label, client, url in pages:
        if args.only not in label:
            continue
        for _ in range(10):
            assert client.get(url).status_code == 200, url
        times = []
        for _ in range(args.requests):
            start = time.perf_counter()
            client.get(url)
            times.append((time.perf_counter() - start) * 1000)
        with CaptureQueriesContext(connection) as queries:
            client.get(url)
        times.sort()
        p95 = times[int(len(times) * 0.95) - 1]
        print(
            f"{label:36} {statistics.median(times):7.1f} {p95:7.1f} {times[-1]:7.1f} "
            f"{len(queries):7d}"
        )


if __name__ == "__main__":
    main()
