"""What a replay costs the server: the pages of one long finished game, a step at a time.

    env -u DATABASE_URL -u REDIS_URL .venv/bin/python benchmarks/replay_cost.py \\
        [--players 8] [--end-score 200] [--requests 20]

Plays one seeded game of random players through the services, has it analysed, then asks for
its replay through Django's test client as one of its players: the first page in each language
(move list rendered), steps at the start, middle and end (htmx), a step with another list, and
the first page again (list cached). Prints wall and CPU ms, queries and bytes per request.
"""

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
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    reset_queries()
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
    parser.add_argument("--profile", help="write a cProfile of the step-at-the-end row here")
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
    from games.models import Game
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
    assert game.status == Game.Status.FINISHED
    started = time.perf_counter()
    analysis_compute(game_id=game.pk)
    print(f"analysed in {time.perf_counter() - started:.0f} s")

    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(users[0])
    url = f"/games/{game.pk}/replay/"
    htmx = {"HX-Request": "true"}
    rows = []
    for language in LANGUAGES:
        rows.append(
            (f"first page, {language} (move list rendered)",)
            + timed(client, url, {"Accept-Language": language})
        )
    last = moves + 1
    samples = [timed(client, f"{url}?step={last}", htmx) for _ in range(args.requests)]
    rows.append(("a step at the end (htmx, list sent)", *_median(samples)))
    htmx["X-Skyjo-Moves"] = "ready"  # as the page's links ask: the list it shows is kept
    for label, step in (("start", 1), ("middle", last // 2), ("end", last)):
        samples = [timed(client, f"{url}?step={step}", htmx) for _ in range(args.requests)]
        if args.profile and label == "end":
            import cProfile

            cProfile.runctx(
                "timed(client, f'{url}?step={step}', htmx)", globals(), locals(), args.profile
            )
        rows.append((f"a step at the {label} (htmx, list kept)", *_median(samples)))
    samples = [timed(client, url) for _ in range(args.requests)]
    rows.append(("first page again (list cached)", *_median(samples)))

    print(f"{'request':40} {'wall ms':>8} {'CPU ms':>8} {'queries':>7} {'bytes':>9}")
    for label, wall, cpu, queries, size in rows:
        print(f"{label:40} {wall:8.1f} {cpu:8.1f} {queries:7d} {size:9d}")


def _median(samples):
    return (
        statistics.median(s[0] for s in samples),
        statistics.median(s[1] for s in samples),
        samples[-1][2],
        samples[-1][3],
    )


if __name__ == "__main__":
    main()
