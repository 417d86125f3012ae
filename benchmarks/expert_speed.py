"""The expert bot's decision time on one core, at the decisions of real games.

    taskset -c 0 .venv/bin/python benchmarks/expert_speed.py [--games N] [--players P]

N seeded games to 100 points, the expert in seat 0 and strong bots in the other seats; every
decision of the expert is timed (wall clock and CPU): p50, p90, p99, max, and the same for
the decisions taken as the round ends, where the expert may search.
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import get_bot  # noqa: E402
from games.bots.knowledge import round_ending  # noqa: E402
from games.engine import Game, view_of  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    expert, strong = get_bot("expert"), get_bot("strong")
    wall, cpu, ending = [], [], []
    for seed in range(args.games):
        rng = random.Random(seed)
        game = Game([f"p{s}" for s in range(args.players)], seed=seed)
        while not game.finished:
            if game.phase == "round_over":
                game.next_round()
                continue
            seat = game.to_act()[0]
            view = view_of(game, seat)
            if seat == 0:
                started, used = time.perf_counter(), time.process_time()
                action = expert.choose(view, rng)
                wall.append(time.perf_counter() - started)
                cpu.append(time.process_time() - used)
                if view.phase in ("play", "final") and round_ending(view):
                    ending.append(cpu[-1])
            else:
                action = strong.choose(view, rng)
            game.apply(seat, action)
    print(f"{args.games} games of {args.players} players, {len(wall)} expert decisions")
    share = 100 * len(ending) / len(cpu)
    print(f"as the round ends (the search may run): {share:.1f}% of decisions")
    for name, values in (("wall", wall), ("cpu", cpu), ("cpu as the round ends", ending)):
        print(
            f"{name}: p50 {1000 * _pct(values, 0.5):.1f} ms, p90 {1000 * _pct(values, 0.9):.1f} ms"
            f", p99 {1000 * _pct(values, 0.99):.1f} ms, max {1000 * max(values):.1f} ms"
            f", mean {1000 * sum(values) / len(values):.1f} ms"
        )


if __name__ == "__main__":
    main()
