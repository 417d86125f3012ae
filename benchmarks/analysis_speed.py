"""Post-game analysis speed on one core: ``analyse_record`` of whole seeded 4-player bot games
(easy, medium, medium, strong), then every turn decision alone (``judge``: the evaluation, and
the rollouts when the move is not the best)."""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.calibrate import play_game  # noqa: E402
from analysis.core import analyse_record, judge  # noqa: E402
from benchmarks.relay_clients import percentile  # noqa: E402
from games.engine import REVEAL, iter_steps  # noqa: E402

SEATS = ("easy", "medium", "medium", "strong")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    records = [play_game(SEATS, seed) for seed in range(args.games)]

    per_game, cpu_game, decisions = [], [], []
    for record in records:
        started, cpu = time.perf_counter(), time.process_time()
        result = analyse_record(record)
        per_game.append(time.perf_counter() - started)
        cpu_game.append(time.process_time() - cpu)
        decisions.append(len(result["decisions"]))

    times, cpu_times = [], []
    for record in records:
        for _step, _seat, action, view in iter_steps(record):
            if action.kind == REVEAL:
                continue
            started, cpu = time.perf_counter(), time.process_time()
            judge(view, action)
            times.append(time.perf_counter() - started)
            cpu_times.append(time.process_time() - cpu)
    print(f"{args.games} games of 4 players to 100 points ({', '.join(SEATS)})")
    print(
        f"whole game, all 4 seats: {statistics.mean(decisions):.0f} decisions a game "
        f"(min {min(decisions)}, max {max(decisions)})"
    )
    print(
        f"  wall: median {statistics.median(per_game):.3f} s, max {max(per_game):.3f} s; "
        f"CPU: median {statistics.median(cpu_game):.3f} s, max {max(cpu_game):.3f} s"
    )
    print(f"one decision ({len(times)}):")
    for name, values in (("wall", times), ("CPU", cpu_times)):
        print(
            f"  {name}: p50 {percentile(values, 50) * 1000:.2f} ms, p99 "
            f"{percentile(values, 99) * 1000:.2f} ms, max {max(values) * 1000:.2f} ms, "
            f"mean {statistics.mean(values) * 1000:.2f} ms"
        )


if __name__ == "__main__":
    main()
