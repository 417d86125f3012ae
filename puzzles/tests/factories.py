"""Puzzles for the tests: from real games played through the services (``played_game``), or
built quickly from an engine game's position (``make_puzzle``)."""

import random
import secrets

from analysis.services import analysis_compute
from games import engine
from games.bots import get_bot
from games.models import Game
from games.tests.helpers import play_to_end, start_game
from puzzles import generation
from puzzles.models import Puzzle


def played_game(monkeypatch, host, *others, seed=1, end_score=40) -> Game:
    """A finished public game played with random legal moves (plenty of mistakes), analysed."""
    monkeypatch.setattr(secrets, "randbits", random.Random(seed).getrandbits)
    game = start_game(host, *others, end_score=end_score)
    play_to_end(game, [host, *others], seed=seed)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    analysis_compute(game_id=game.pk)
    return game


def _position(seed: int, drawing: bool) -> tuple[engine.View, engine.Action]:
    """A turn decision of seat 0 in a game of strong bots, and the move the bot made."""
    rng = random.Random(seed)
    game = engine.Game(["ann", "ben", "cid"], seed=seed)
    bot = get_bot("strong")
    turns = 0
    while True:
        seat = game.to_act()[0]
        view = engine.view_of(game, seat)
        action = bot.choose(view, rng)
        if game.phase == engine.PLAY and seat == 0 and view.drawing == drawing:
            turns += 1
            if turns == 3:
                return view, action
        game.apply(seat, action)


def make_puzzle(*, seed: int = 1, rating: float = 25.0, drawing: bool = False) -> Puzzle:
    """A puzzle of a position of an engine game (no game row), the bot's move as played."""
    view, action = _position(seed, drawing)
    options, lost, gap = generation.confirm(view, action, 8)
    played = next(o["code"] for o in options[1:] if o["code"] != options[0]["code"])
    return Puzzle.objects.create(
        step=seed,
        seat=view.seat,
        view=generation.view_data(view),
        decision=generation.PLACE if drawing else generation.TAKE_OR_DRAW,
        options=options,
        answer=options[0]["code"],
        played=played,
        topic="which_swap",
        analysis_lost=4.0,
        confirmed_lost=max(lost, 3.0),
        confirmed_gap=max(gap, 1.5),
        samples=8,
        rating=rating,
    )
