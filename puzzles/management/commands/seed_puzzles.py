"""``manage.py seed_puzzles --count 100000 --seed 1`` (puzzles.seeding)."""

import time

from django.core.management.base import BaseCommand

from puzzles.seeding import seed_puzzles


class Command(BaseCommand):
    help = "Add many puzzles of bot games' positions (for measuring; linked to no game)."

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, default=1000)
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args, count, seed, **options):
        started = time.monotonic()
        seed_puzzles(
            count=count,
            seed=seed,
            log=lambda line: self.stdout.write(f"{time.monotonic() - started:7.1f}s  {line}"),
        )
        self.stdout.write(f"seeded {count} puzzles in {time.monotonic() - started:.0f} s")
