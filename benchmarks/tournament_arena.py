"""Pairing time and standings page answer times of a seeded arena (docs/performance.md).

    nice -n 10 .venv/bin/python benchmarks/tournament_arena.py [--requests 200] [--tournament ID]

Uses the newest arena made by ``manage.py seed_arena`` (or ``--tournament``). Times, each
``--repeat`` times: the pairing of every player (reading their history and the pure pairing),
a step that seats the free players (opening their games; rolled back), and a step that seats
all the players at once (rolled back); then the live page through Django's test client, as a
visitor and as one of the players, and the live partial rendered anew (what a change costs a
process: the pages and sockets then share it until the next change). Prints p50, p95, max, the
mean CPU time of this process per request, and the queries of one.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "skyjo_site.settings")


class Rollback(Exception):
    pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tournament", type=int, default=None)
    args = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from core import caches
    from tournaments import pairing
    from tournaments.models import Entry, TableSeat, Tournament
    from tournaments.services import ticks
    from web.tournaments import rendering

    rows = Tournament.objects.filter(kind="arena", name__startswith="Benchmark arena")
    tournament = rows.get(pk=args.tournament) if args.tournament else rows.latest("pk")
    entries = list(tournament.entries.all())
    playing = tournament.tables.filter(status="playing").count()
    seats = TableSeat.objects.filter(table__tournament=tournament).count()
    print(
        f"arena #{tournament.pk}: {len(entries)} players, {playing} tables in play, "
        f"{seats} seats in its history"
    )

    def timed(label, call, repeat=args.repeat):
        times = []
        for _ in range(repeat):
            with CaptureQueriesContext(connection) as queries:
                start = time.perf_counter()
                call()
                times.append((time.perf_counter() - start) * 1000)
        times.sort()
        print(f"{label:44} {statistics.median(times):8.1f} {times[-1]:8.1f} {len(queries):7d}")

    def pair_everyone():
        players = ticks.players_for_pairing(tournament, entries)
        tables, _ = pairing.pair(players, tournament.table_min, tournament.table_max)
        assert len(tables) == len(entries) // 4 + (len(entries) % 4 > 0)

    def step(free_all: bool):
        def run():
            try:
                with transaction.atomic():
                    if free_all:
                        TableSeat.objects.filter(table__tournament=tournament).update(playing=False)
                    Entry.objects.filter(tournament=tournament).update(
                        free_since=timezone.now() - ticks.GATHER
                    )
                    ticks.tournament_step(tournament_id=tournament.pk)
                    raise Rollback
            except Rollback:
                pass

        return run

    print(f"{'pairing':44} {'p50 ms':>8} {'max ms':>8} {'queries':>7}")
    timed(f"pair all {len(entries)} (read + pure pairing)", pair_everyone)
    timed("step: seat the free players, open games", step(False))
    timed(f"step: seat all {len(entries)} at once, open games", step(True), repeat=3)

    member = Client(HTTP_HOST="127.0.0.1")
    member.force_login(entries[0].user)
    visitor = Client(HTTP_HOST="127.0.0.1")
    visitor.force_login(get_user_model().objects.get_or_create(username="arena-visitor")[0])
    url = f"/tournaments/{tournament.pk}/"

    def render_anew(tournament):
        caches.clear_all()
        rendering.live_html(tournament)

    def page(client):
        response = client.get(url)
        assert response.status_code == 200, response.status_code

    print(f"{'page':44} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'cpu ms':>7} {'queries':>7}")
    for label, call in (
        ("live page, a visitor (logged in)", lambda: page(visitor)),
        ("live page, a player", lambda: page(member)),
        ("live partial rendered anew (a new version)", lambda: render_anew(tournament)),
    ):
        for _ in range(10):
            call()
        times, cpu = [], time.process_time()
        for _ in range(args.requests):
            start = time.perf_counter()
            call()
            times.append((time.perf_counter() - start) * 1000)
        cpu = (time.process_time() - cpu) * 1000 / args.requests
        with CaptureQueriesContext(connection) as queries:
            call()
        times.sort()
        p95 = times[int(len(times) * 0.95) - 1]
        print(
            f"{label:44} {statistics.median(times):8.1f} {p95:8.1f} {times[-1]:8.1f} "
            f"{cpu:7.1f} {len(queries):7d}"
        )


if __name__ == "__main__":
    main()
