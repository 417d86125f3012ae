"""Answer times of the statistics pages on the database as it is (docs/performance.md): the
busiest player's profile, a 300-game profile, the players page and a finished game's page
through Django's test client, from the statistics cache (``--cold``: never from it)."""

import argparse
import itertools
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_site.settings")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--only", default="", help="only the pages whose label has this text")
    parser.add_argument("--cold", action="store_true", help="never from the statistics cache")
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.db.models import Count
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from benchmarks.relay_clients import percentile
    from stats import profile_cache
    from stats.models import GameResult

    if args.cold:
        # A new fingerprint on every use: every key is new (the entries written expire).
        fresh = itertools.count()
        profile_cache.fingerprint = lambda: f"cold-{os.getpid()}-{next(fresh)}"

    counts = (
        GameResult.objects.filter(user__isnull=False)
        .values("user_id", "user__username")
        .annotate(n=Count("id"))
    )
    busiest = counts.order_by("-n").first()
    regular = counts.filter(n__gte=300).order_by("n").first()
    User = get_user_model()
    player = User.objects.get(pk=busiest["user_id"])
    other = User.objects.exclude(pk=player.pk).order_by("pk").first()
    game = GameResult.objects.filter(user=player).order_by("-finished_at").first()
    print(
        f"{GameResult.objects.values('game_id').distinct().count()} finished games, "
        f"{User.objects.count()} users; busiest: {player.username} with {busiest['n']} games"
    )

    visitor, member, own = (Client(HTTP_HOST="127.0.0.1") for _ in range(3))
    member.force_login(other)
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
        p50, p95 = percentile(times, 50), percentile(times, 95)
        print(f"{label:36} {p50:7.1f} {p95:7.1f} {max(times):7.1f} {len(queries):7d}")


if __name__ == "__main__":
    main()
