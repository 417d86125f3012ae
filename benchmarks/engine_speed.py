"""Engine speed on one core: applied actions per second and random 4-player games per second.
The random games are timed whole, then their moves are replayed on fresh games in a tight loop
that times ``apply`` (all checks) and ``next_round`` only."""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import Game  # noqa: E402

PLAYERS = ["a", "b", "c", "d"]


def play_random_game(seed: int, moves: list) -> None:
    """One random 4-player game; ``moves`` collects (seat, action), None marks a new round."""
    rng = random.Random(seed)
    game = Game(PLAYERS, seed=seed)
    while not game.finished:
        if game.phase == "round_over":
            game.next_round()
            moves.append(None)
        else:
            seat = game.to_act()[0]
            action = rng.choice(game.legal_actions(seat))
            game.apply(seat, action)
            moves.append((seat, action))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    args = parser.parse_args()

    scripts: list[list] = [[] for _ in range(args.games)]
    start = time.perf_counter()
    for seed, moves in enumerate(scripts):
        play_random_game(seed, moves)
    games_wall = time.perf_counter() - start
    total = sum(m is not None for moves in scripts for m in moves)

    start = time.perf_counter()
    for seed, moves in enumerate(scripts):
        game = Game(PLAYERS, seed=seed)
        apply = game.apply
        for move in moves:
            if move is None:
                game.next_round()
            else:
                apply(*move)
    replay_wall = time.perf_counter() - start
    assert game.finished

    print(f"games: {args.games} random 4-player games, {total} actions")
    print(f"applied actions per second (replay of the collected moves): {total / replay_wall:,.0f}")
    print(f"complete games per second (random legal moves): {args.games / games_wall:,.1f}")


if __name__ == "__main__":
    main()
