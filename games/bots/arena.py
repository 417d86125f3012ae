"""The bot arena: seeded games between a candidate and copies of one opponent, every deal
played once per seating (usage and columns: docs/bots.md)."""

import argparse
import math
import random
import time
from dataclasses import dataclass, field, fields
from multiprocessing import Pool

from games.engine import Game, full_deck, view_of

from . import LEVELS, get_bot
from .baselines import BASELINES

MAX_ROUNDS = 60
MAX_ACTIONS = 20_000


def make_bot(name: str):
    return BASELINES[name]() if name in BASELINES else get_bot(name)


@dataclass
class Tally:
    games: int = 0
    wins: float = 0.0
    rounds: int = 0
    score: int = 0
    ends: int = 0
    doubled: int = 0
    stalled: int = 0
    times: list[float] = field(default_factory=list)

    def add(self, other: "Tally") -> None:
        for name in (f.name for f in fields(self)):
            setattr(self, name, getattr(self, name) + getattr(other, name))


def deck_for(deal: int, rnd: int) -> list[int]:
    deck = full_deck()
    random.Random(deal * 1000 + rnd).shuffle(deck)
    return deck


def play_game(task) -> tuple[Tally, Tally]:
    """Play one deal in one seating; return the candidate's and the opponents' tallies."""
    candidate, opponent, players, deal, cand_seat = task
    bots = [make_bot(candidate if s == cand_seat else opponent) for s in range(players)]
    rngs = [random.Random(deal * 100 + s) for s in range(players)]
    game = Game([f"s{s}" for s in range(players)], seed=deal, deck=deck_for(deal, 1))
    times: list[list[float]] = [[] for _ in range(players)]
    steps = 0
    while not game.finished and game.round <= MAX_ROUNDS and steps < MAX_ACTIONS:
        steps += 1
        if game.phase == "round_over":
            game.next_round(deck_for(deal, game.round + 1))
            continue
        seat = game.to_act()[0]
        view = view_of(game, seat)
        start = time.perf_counter()
        action = bots[seat].choose(view, rngs[seat])
        times[seat].append(time.perf_counter() - start)
        game.apply(seat, action)
    best = min(game.totals)
    winners = [s for s, t in enumerate(game.totals) if t == best]
    cand, opp = Tally(), Tally()
    cand.stalled = int(not game.finished)
    for s in range(players):
        t = cand if s == cand_seat else opp
        t.games += 1
        t.wins += 1 / len(winners) if s in winners else 0.0
        t.times.extend(times[s])
        for r in game.results:
            t.rounds += 1
            t.score += r.scores[s]
            if r.ender == s:
                t.ends += 1
                t.doubled += r.doubled
    return cand, opp


def run_pairing(candidate, opponent, games, players, seed, jobs) -> tuple[Tally, Tally]:
    deals = math.ceil(games / players)
    tasks = [
        (candidate, opponent, players, seed * 1_000_003 + d, s)
        for d in range(deals)
        for s in range(players)
    ]
    cand, opp = Tally(), Tally()
    if jobs > 1:
        with Pool(jobs) as pool:
            results = list(pool.imap_unordered(play_game, tasks, chunksize=4))
    else:
        results = [play_game(t) for t in tasks]
    for c, o in results:
        cand.add(c)
        opp.add(o)
    return cand, opp


def interval(wins: float, n: int) -> tuple[float, float, float]:
    """Win rate and its 95% Wilson score interval."""
    if not n:
        return 0.0, 0.0, 0.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def row(name: str, t: Tally) -> str:
    p, lo, hi = interval(t.wins, t.games)
    times = sorted(t.times)
    mean_ms = 1000 * sum(times) / len(times) if times else 0.0
    p99_ms = 1000 * times[min(len(times) - 1, int(0.99 * len(times)))] if times else 0.0
    ends = t.ends / t.rounds if t.rounds else 0.0
    doubled = t.doubled / t.ends if t.ends else 0.0
    return (
        f"| {name:<18} | {t.games:>6} | {t.score / max(t.rounds, 1):>6.2f} "
        f"| {100 * p:>5.1f}% [{100 * lo:>5.1f}, {100 * hi:>5.1f}]  "
        f"| {100 * ends:>5.1f}% | {100 * doubled:>5.1f}% | {mean_ms:>7.3f} | {p99_ms:>7.3f} |"
    )


HEADER = (
    f"| {'bot':<18} | {'games':>6} | {'rnd sc':>6} | {'win rate [95% CI]':<22} "
    f"| {'ends':>6} | {'dbl’d':>6} | {'mean ms':>7} | {'p99 ms':>7} |\n"
    f"|{'-' * 20}|{'-' * 7}:|{'-' * 7}:|{'-' * 24}|{'-' * 7}:|{'-' * 7}:|{'-' * 8}:|{'-' * 8}:|"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.bots.arena",
        description="Play seeded games: a candidate bot against copies of each opponent.",
    )
    names = [*LEVELS, *BASELINES]
    parser.add_argument("--candidate", default="strong", choices=names)
    parser.add_argument(
        "--against", default="greedy", help=f"comma-separated opponents from: {', '.join(names)}"
    )
    parser.add_argument("--games", type=int, default=20, help="games per pairing")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 9))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(argv)
    opponents = [a.strip() for a in args.against.split(",") if a.strip()]
    for o in opponents:
        if o not in names:
            parser.error(f"unknown opponent {o!r}; choose from {', '.join(names)}")
    print(
        f"arena: {args.candidate} vs {args.players - 1} x opponent, {args.players} players, "
        f"{args.games} games per pairing, seed {args.seed}, jobs {args.jobs}"
    )
    print("ends = rounds it ended / rounds played; dbl’d = doubled / rounds it ended")
    for opponent in opponents:
        start = time.perf_counter()
        cand, opp = run_pairing(
            args.candidate, opponent, args.games, args.players, args.seed, args.jobs
        )
        p, lo, hi = interval(cand.wins, cand.games)
        share = 1 / args.players
        verdict = "above" if lo > share else "below" if hi < share else "overlaps"
        print(f"\n## {args.candidate} vs {opponent}  ({time.perf_counter() - start:.1f} s)")
        print(HEADER)
        print(row(args.candidate, cand))
        print(row(f"{opponent} (x{args.players - 1})", opp))
        print(f"candidate win-rate interval {verdict} the {100 * share:.0f}% share")
        if cand.stalled:
            print(f"{cand.stalled} games hit the action cap and were scored unfinished")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
