"""Do the points lost add up to real points? The analysis against a replay on the same decks.

    nice -n 10 .venv/bin/python -m analysis.check --rounds 400 --level easy --replay strong

Each trial deals one seeded deck to ``--players`` seats and plays one round: the judged seat
(rotated) by a ``--level`` bot, the others by ``--others`` bots. The analysis sums the points
the judged seat lost in that round. Then the same deck is played again with the same bots and
random sources, the judged seat's turns now made by the ``--replay`` bot (its two start cards
as before): how much lower its round score comes out is what its decisions really cost. The
sums over all trials should match within 20 %; the label thresholds are printed with them.
Pure Python, no Django.
"""

import argparse
import math
import random
import sys
import time

from games.bots import get_bot
from games.engine import REVEAL_PHASE, ROUND_OVER, Game, full_deck, to_record, view_of

from .core import BLUNDER, INACCURACY, LABELS, MISTAKE, analyse_record

TOLERANCE = 0.20


def play_round(deck: list[int], bots, seeds: list[int], seat: int, revealer) -> Game:
    """One round of ``deck``; seat ``seat`` reveals with ``revealer`` and then plays
    ``bots[seat]``. Every seat draws on its own random source ``seeds[s]``."""
    rngs = [random.Random(s) for s in seeds]
    game = Game([f"s{s}" for s in range(len(bots))], seed=seeds[0], deck=deck)
    while game.phase != ROUND_OVER and not game.finished:
        s = game.to_act()[0]
        bot = revealer if s == seat and game.phase == REVEAL_PHASE else bots[s]
        game.apply(s, bot.choose(view_of(game, s), rngs[s]))
    return game


def trial(index: int, seed: int, players: int, level: str, others: str, replay: str) -> dict:
    """One deck: the points the judged seat lost, and what replaying it saved."""
    deck = full_deck()
    random.Random(seed * 1_000_003 + index).shuffle(deck)
    seat = index % players
    seeds = [seed * 7919 + index * 100 + s for s in range(players)]
    judged = get_bot(level)
    bots = [judged if s == seat else get_bot(others) for s in range(players)]
    game = play_round(deck, bots, seeds, seat, judged)
    analysis = analyse_record(to_record(game), seats=[seat])
    (mine,) = analysis["players"]
    bots[seat] = get_bot(replay)
    again = play_round(deck, bots, seeds, seat, judged)
    return {
        "lost": mine["lost"],
        "saved": game.results[-1].scores[seat] - again.results[-1].scores[seat],
        "labels": mine["labels"],
        "decisions": mine["decisions"],
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m analysis.check", description=__doc__)
    parser.add_argument("--rounds", type=int, default=40, help="trials (one round each)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--level", default="easy", help="the judged seat's bot")
    parser.add_argument("--others", default="strong", help="the other seats' bots")
    parser.add_argument("--replay", default="strong", help="the bot that replays the seat")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    results = [
        trial(i, args.seed, args.players, args.level, args.others, args.replay)
        for i in range(args.rounds)
    ]
    n = len(results)
    lost = sum(r["lost"] for r in results)
    saved = [r["saved"] for r in results]
    mean_saved = sum(saved) / n
    se = math.sqrt(sum((x - mean_saved) ** 2 for x in saved) / max(n - 1, 1) / n)
    ratio = lost / sum(saved) if sum(saved) else math.inf
    decisions = sum(r["decisions"] for r in results)
    labels = {label: sum(r["labels"][label] for r in results) for label in LABELS}
    print(
        f"{n} rounds of {args.players} players: {args.level} judged (seat rotated), "
        f"{args.others} in the other seats, replayed by {args.replay}, seed {args.seed}, "
        f"{time.perf_counter() - started:.1f} s"
    )
    print(
        f"points lost (analysis): {lost / n:.2f} a round over {decisions} decisions; "
        f"replay saves: {mean_saved:.2f} a round (95% interval "
        f"{mean_saved - 1.96 * se:.2f} to {mean_saved + 1.96 * se:.2f})"
    )
    verdict = "within" if abs(ratio - 1) <= TOLERANCE else "outside"
    print(f"ratio lost / saved: {ratio:.2f}, {verdict} the {100 * TOLERANCE:.0f}% tolerance")
    print(
        f"labels (thresholds {INACCURACY:g} / {MISTAKE:g} / {BLUNDER:g} points): "
        + ", ".join(f"{labels[label]} {label}" for label in LABELS)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
