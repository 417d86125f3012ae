"""``manage.py seed_games --games 100000 --players 5000 --seed 1`` (stats.seeding)."""

import time

from django.core.management.base import BaseCommand

from stats.seeding import seed_games


class Command(BaseCommand):
    help = "Fill the database with realistic finished games (deterministic for a --seed)."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=1000)
        parser.add_argument("--players", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--pool", type=int, default=400, help="distinct games played")

    def handle(self, *args, games, players, seed, pool, **options):
        started = time.monotonic()
        seed_games(
            games=games,
            players=players,
            seed=seed,
            pool=pool,
            log=lambda line: self.stdout.write(f"{time.monotonic() - started:7.1f}s  {line}"),
        )
        self.stdout.write(
            f"seeded {games} games for {players} players in {time.monotonic() - started:.0f} s"
        )
