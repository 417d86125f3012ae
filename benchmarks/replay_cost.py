"""What a replay costs the server: one seeded long game played and analysed, then its replay
pages through Django's test client (first page per language, steps at the start, middle and
end, the page again): wall and CPU ms, queries and bytes per request."""

import argparse
import os
import random
import secrets
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_site.settings")

LANGUAGES = ("en", "de", "fr", "nb", "nl", "sv")


def timed(client, url, headers=None):
    """(wall ms, CPU ms, queries, bytes) of one GET that must answer 200."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        started, cpu = time.perf_counter(), time.process_time()
        response = client.get(url, headers=headers or {})
        wall, used = time.perf_counter() - started, time.process_time() - cpu
    assert response.status_code == 200, (url, response.status_code)
    return wall * 1000, used * 1000, len(queries), len(response.content)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--end-score", type=int, default=200)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    connection.creation.create_test_db(verbosity=0)
    from analysis.services import analysis_compute
    from games.tests.helpers import play_to_end, start_game

    User = get_user_model()
    users = [
        User.objects.create_user(f"p{i}", f"p{i}@example.com", "horse-battery-77")
        for i in range(args.players)
    ]
    started = time.perf_counter()
    secrets.randbits = random.Random(args.seed).getrandbits  # the same decks every run
    game = start_game(*users, end_score=args.end_score)
    play_to_end(game, users, seed=args.seed, limit=100_000)
    game.refresh_from_db()
    moves = game.moves.count()
    print(
        f"one game of {args.players} random players to {args.end_score}: {moves} moves, "
        f"{game.rounds.count()} rounds (played in {time.perf_counter() - started:.0f} s); "
        f"database {settings.DATABASES['default']['ENGINE'].rsplit('.', 1)[-1]}"
    )
    assert game.status == game.Status.FINISHED
    started = time.perf_counter()
    analysis_compute(game_id=game.pk)
    print(f"analysed in {time.perf_counter() - started:.0f} s")

    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(users[0])
    url = f"/games/{game.pk}/replay/"
    htmx = {"HX-Request": "true"}
    rows = [
        (f"first page, {language} (move list rendered)",)
        + timed(client, url, {"Accept-Language": language})
        for language in LANGUAGES
    ]

    def median_of(label, path, headers=None):
        samples = [timed(client, path, headers) for _ in range(args.requests)]
        walls, cpus, queries, sizes = zip(*samples, strict=True)
        rows.append(
            (label, statistics.median(walls), statistics.median(cpus), queries[-1], sizes[-1])
        )

    last = moves + 1
    median_of("a step at the end (htmx, list sent)", f"{url}?step={last}", htmx)
    htmx["X-Skyjo-Moves"] = "ready"  # as the page's links ask: the list it shows is kept
    for label, step in (("start", 1), ("middle", last // 2), ("end", last)):
        median_of(f"a step at the {label} (htmx, list kept)", f"{url}?step={step}", htmx)
    median_of("first page again (list cached)", url)

    print(f"{'request':40} {'wall ms':>8} {'CPU ms':>8} {'queries':>7} {'bytes':>9}")
    for label, wall, cpu, queries, size in rows:
        print(f"{label:40} {wall:8.1f} {cpu:8.1f} {queries:7d} {size:9d}")


if __name__ == "__main__":
    main()
