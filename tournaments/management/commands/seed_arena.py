"""``manage.py seed_arena --players 500 --tables 150 --seed 1`` (tournaments.seeding)."""

import time

from django.core.management.base import BaseCommand

from tournaments.seeding import seed_arena


class Command(BaseCommand):
    help = "Fill the database with a running arena: players, past tables and tables in play."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, default=500)
        parser.add_argument("--tables", type=int, default=150)
        parser.add_argument("--history", type=int, default=8, help="finished waves of tables")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, players, tables, history, seed, **options):
        started = time.monotonic()
        made = seed_arena(
            players=players,
            tables=tables,
            history=history,
            seed=seed,
            log=lambda line: self.stdout.write(f"{time.monotonic() - started:7.1f}s  {line}"),
        )
        self.stdout.write(f"arena #{made.pk} seeded in {time.monotonic() - started:.0f} s")
