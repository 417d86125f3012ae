"""``manage.py make_puzzles [--samples 200] [--games N]`` (puzzles.services.puzzles_make)."""

import time

from django.core.management.base import BaseCommand

from puzzles import generation
from puzzles.services import puzzles_make


class Command(BaseCommand):
    help = "Make puzzles from the analysed finished public games not examined yet."

    def add_arguments(self, parser):
        parser.add_argument("--samples", type=int, default=generation.CONFIRM_SAMPLES)
        parser.add_argument("--games", type=int, default=None, help="at most this many games")
        parser.add_argument("--min-lost", type=float, default=generation.MIN_LOST)
        parser.add_argument("--min-gap", type=float, default=generation.MIN_GAP)

    def handle(self, *args, samples, games, min_lost, min_gap, verbosity, **options):
        started = time.monotonic()
        made = puzzles_make(
            samples=samples,
            games=games,
            min_lost=min_lost,
            min_gap=min_gap,
            log=self.stdout.write if verbosity > 1 else None,
        )
        self.stdout.write(f"made {made} puzzle(s) in {time.monotonic() - started:.1f} s")
