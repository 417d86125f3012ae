"""Engine speed on one core: applied actions per second and random 4-player games per second.

Run: .venv/bin/python benchmarks/engine_speed.py [--games N]
Moves are chosen by a cheap seeded random policy that is timed apart and subtracted, so the
figure measures the engine's ``apply`` (checks included), not the chooser.
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import Game  # noqa: E402


def play_random_game(seed: int) -> tuple[int, float]:
    """Play one random 4-player game; return (actions applied, seconds spent in apply)."""
    rng = random.Random(seed)
    game = Game(["a", "b", "c", "d"], seed=seed)
    applied = 0
    in_apply = 0.0
    clock = time.perf_counter
    while not game.finished:
        if game.phase == "round_over":
            game.next_round()
            continue
        seat = game.to_act()[0]
        action = rng.choice(game.legal_actions(seat))
        start = clock()
        game.apply(seat, action)
        in_apply += clock() - start
        applied += 1
    return applied, in_apply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    args = parser.parse_args()
    total_actions = 0
    total_apply = 0.0
    start = time.perf_counter()
    for seed in range(args.games):
        applied, in_apply = play_random_game(seed)
        total_actions += applied
        total_apply += in_apply
    wall = time.perf_counter() - start
    print(f"games: {args.games} random 4-player games, {total_actions} actions")
    print(f"applied actions per second (apply only): {total_actions / total_apply:,.0f}")
    print(f"complete games per second (with the random chooser): {args.games / wall:,.1f}")
    print(f"actions per second including legal_actions + choice: {total_actions / wall:,.0f}")


if __name__ == "__main__":
    main()
