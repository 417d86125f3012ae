"""Helpers shared by the games tests: start games, play them through the services."""

import random

from games import engine, services
from games.models import Game


def start_game(host, *others, end_score=100, **options):
    lobby = services.lobby_create(
        host=host,
        name="Test table",
        seat_count=max(2, 1 + len(others)),
        end_score=end_score,
        **options,
    )
    for user in others:
        services.lobby_join(lobby_id=lobby.pk, user=user)
    return services.lobby_start(lobby_id=lobby.pk, user=host)


def restore(game: Game) -> engine.Game:
    """The engine game of ``game`` as saved (from its snapshot: it keeps no record)."""
    game.refresh_from_db()
    return engine.from_snapshot(game.snapshot)


def reveal_all(game: Game, users) -> None:
    """Every player turns positions 0 and 1."""
    for user in users:
        for pos in (0, 1):
            game.refresh_from_db()
            services.game_apply_action(
                game_id=game.pk, user=user, action={"reveal": pos}, version=game.version
            )


def play_one(game: Game, users, rng: random.Random) -> dict:
    """Make one legal step for whoever is to act, through the service; returns the action."""
    game.refresh_from_db()
    state = engine.from_snapshot(game.snapshot)
    if state.phase == engine.ROUND_OVER:
        for user in users:
            services.game_set_ready(game_id=game.pk, user=user)
        return {"ready": True}
    seat = state.to_act()[0]
    action = rng.choice(state.legal_actions(seat)).to_json()
    services.game_apply_action(
        game_id=game.pk, user=users[seat], action=action, version=game.version
    )
    return action


def play_to_end(game: Game, users, seed=1, limit=5000) -> None:
    rng = random.Random(seed)
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return
        play_one(game, users, rng)
    raise AssertionError("the game did not end")
