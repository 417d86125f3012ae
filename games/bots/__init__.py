"""Computer opponents for Skyjo: pure Python, no Django.

A bot is handed one seat's :class:`~games.engine.View` (never the game) and a random source,
and returns one legal engine step for that seat:

>>> import random
>>> from games.engine import Game, view_of
>>> from games.bots import get_bot
>>> game = Game(["ann", "bot"], seed=3)
>>> action = get_bot("easy").choose(view_of(game, 1), random.Random(0))
>>> action.kind
'reveal'
"""

import random
from typing import Protocol

from games.engine import Action, View

LEVELS = ("easy", "medium", "strong", "expert")
LEVEL_LABELS = {"easy": "Easy", "medium": "Medium", "strong": "Strong", "expert": "Expert"}
# Plays a human seat whose player is away or out of time, or whose account was deleted.
AWAY_LEVEL = "medium"


class Bot(Protocol):
    """Decides one engine step from what one seat can see."""

    name: str

    def choose(self, view: View, rng: random.Random) -> Action:
        """One step legal for ``view.seat``: a reveal, a draw or take, or a swap or flip."""
        ...


def get_bot(level: str) -> Bot:
    """A fresh bot of ``level`` (one of :data:`LEVELS`); ``ValueError`` for anything else."""
    if level == "easy":
        from .easy import EasyBot

        return EasyBot()
    if level == "medium":
        from .medium import MediumBot

        return MediumBot()
    if level == "strong":
        from .strong import StrongBot

        return StrongBot()
    if level == "expert":
        from .expert import ExpertBot

        return ExpertBot()
    raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")


__all__ = ["LEVELS", "LEVEL_LABELS", "Bot", "get_bot"]
