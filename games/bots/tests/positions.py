"""Random positions for bot tests: seeded games played by random legal moves."""

import random

from games.engine import Game, view_of


def random_views(seed: int, count: int, players: int = 4):
    """Yield ``(game, seat, view)`` at ``count`` decision points of random seeded games."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        game = Game([f"p{i}" for i in range(players)], seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(1, 3)):
            while not game.finished and game.phase != "round_over" and made < count:
                seat = game.to_act()[0]
                view = view_of(game, seat)
                yield game, seat, view
                made += 1
                game.apply(seat, rng.choice(view.legal_actions()))
            if game.phase != "round_over":
                break
            game.next_round()
