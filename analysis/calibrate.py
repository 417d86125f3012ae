"""Calibration of the analysis on bot games: points lost per decision for each bot level.

    nice -n 10 .venv/bin/python -m analysis.calibrate --games 500 --seed 1

One easy, one medium and one strong bot per game (seats rotated); every seat analysed, the
decisions pooled per level. Pure Python, no Django.
"""

import argparse
import random
import statistics
import sys
import time

from games.bots import get_bot
from games.engine import GAME_OVER, ROUND_OVER, Game, to_record, view_of

from .core import LABELS, accuracy, analyse_record

LEVELS = ("easy", "medium", "strong")
MAX_STEPS = 20_000


def play_game(levels, seed: int) -> dict:
    """The record of a whole game among bots of ``levels`` (one seat each)."""
    rng = random.Random(seed)
    bots = [get_bot(level) for level in levels]
    game = Game([f"{level} {i + 1}" for i, level in enumerate(levels)], seed=seed)
    for _ in range(MAX_STEPS):
        if game.phase == GAME_OVER:
            break
        if game.phase == ROUND_OVER:
            game.next_round()
            continue
        seat = game.to_act()[0]
        game.apply(seat, bots[seat].choose(view_of(game, seat), rng))
    return to_record(game)


def collect(games: int, seed: int = 1, levels=LEVELS) -> dict[str, list[dict]]:
    """The judged decisions of each level over ``games`` games."""
    found: dict[str, list[dict]] = {level: [] for level in levels}
    for g in range(games):
        shift = g % len(levels)
        seating = levels[shift:] + levels[:shift]
        record = play_game(seating, seed * 100_003 + g)
        for d in analyse_record(record)["decisions"]:
            found[seating[d["seat"]]].append(d)
    return found


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def table(found: dict[str, list[dict]], games: int) -> str:
    lines = [
        "| level | decisions | mean lost | median | p90 | p99 | max | ≥1 | ≥3 | ≥6 "
        "| lost per game | accuracy |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for level, decisions in found.items():
        lost = [d["lost"] for d in decisions]
        n = len(lost) or 1
        counts = {label: sum(d["label"] == label for d in decisions) for label in LABELS}
        at_least_1 = sum(counts.values())
        lines.append(
            f"| {level} | {len(lost)} | {statistics.fmean(lost or [0]):.3f} "
            f"| {_pct(lost, 0.5):.2f} | {_pct(lost, 0.9):.2f} | {_pct(lost, 0.99):.2f} "
            f"| {max(lost or [0]):.2f} | {100 * at_least_1 / n:.1f}% "
            f"| {100 * (counts['mistake'] + counts['blunder']) / n:.1f}% "
            f"| {100 * counts['blunder'] / n:.1f}% "
            f"| {sum(d['estimate'] for d in decisions) / max(games, 1):.1f} "
            f"| {accuracy(lost)}% |"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis.calibrate", description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    found = collect(args.games, args.seed)
    print(
        f"{args.games} games of 3 players (easy, medium, strong), seed {args.seed}, "
        f"{time.perf_counter() - started:.1f} s"
    )
    print(table(found, args.games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
