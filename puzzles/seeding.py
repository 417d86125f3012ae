"""Fill a database with many puzzles quickly (``manage.py seed_puzzles``), for measuring the
choice of the next puzzle: positions of games the strong bot played, their options priced by
the strong bot's model (no rollouts), ratings spread like a rated pool's. Deterministic for a
``seed``; the rows are linked to no game."""

import random

from django.db import transaction

from games import engine
from games.bots import get_bot
from games.bots.evaluation import evaluate
from puzzles import generation
from puzzles.models import START_MU, START_SIGMA, Puzzle

CHUNK = 5000
#: Spread of the seeded puzzles' ratings around a newcomer's.
SPREAD = 6.0


def positions(count: int, seed: int) -> list[tuple[engine.View, list]]:
    """``count`` turn decisions (view, priced options) of three-player strong-bot games."""
    rng, bot, found = random.Random(seed), get_bot("strong"), []
    game_seed = seed * 1000
    while len(found) < count:
        game_seed += 1
        game = engine.Game(["a", "b", "c"], seed=game_seed)
        while game.phase in (engine.REVEAL_PHASE, engine.PLAY, engine.FINAL):
            seat = game.to_act()[0]
            view = engine.view_of(game, seat)
            action = bot.choose(view, rng)
            if game.phase != engine.REVEAL_PHASE and len(found) < count:
                found.append((view, sorted(evaluate(view), key=lambda m: m.cost)))
            game.apply(seat, action)
    return found


def seed_puzzles(*, count: int, seed: int = 1, log=print) -> int:
    """Add ``count`` puzzles; returns how many."""
    rng = random.Random(seed)
    pool = positions(min(count, 500), seed)
    made = 0
    while made < count:
        rows = []
        for i in range(made, min(count, made + CHUNK)):
            view, moves = pool[i % len(pool)]
            options = [
                {
                    "code": generation.code_of(m.action),
                    "move": m.action.to_json(),
                    "points": round(m.cost, 2),
                }
                for m in moves
            ]
            rows.append(
                Puzzle(
                    step=i,
                    seat=view.seat,
                    view=generation.view_data(view),
                    decision=generation.PLACE if view.drawing else generation.TAKE_OR_DRAW,
                    options=options,
                    answer=options[0]["code"],
                    played=options[-1]["code"],
                    topic="which_swap",
                    analysis_lost=0.0,
                    confirmed_lost=round(options[-1]["points"] - options[0]["points"], 2),
                    confirmed_gap=round(options[1]["points"] - options[0]["points"], 2)
                    if len(options) > 1
                    else 0.0,
                    samples=0,
                    rating=rng.gauss(START_MU, SPREAD),
                    rating_sigma=START_SIGMA * rng.uniform(0.3, 1.0),
                )
            )
        with transaction.atomic():
            Puzzle.objects.bulk_create(rows)
        made += len(rows)
        log(f"{made} puzzles")
    return made
