"""Puzzles made from finished public games, the players' puzzle ratings and their attempts."""

from django.conf import settings
from django.db import models
from django.db.models import Q

#: A newcomer's (and a new puzzle's) OpenSkill estimate: openskill's defaults.
START_MU = 25.0
START_SIGMA = 25.0 / 3


def shown(mu: float) -> int:
    """The puzzle rating people see: ``1000 + 40 (mu - 25)``, the game ratings' scale without
    their caution term (a newcomer and a new puzzle show 1000)."""
    return round(1000 + 40 * (mu - START_MU))


class Puzzle(models.Model):
    """One decision of a finished game, from the deciding player's view only.

    ``view``: ``{"seat", "round", "phase", "current", "ender", "deck_count", "discard_top",
    "drawing", "drawn", "players": [{"grid", "total"}]}``, the engine's view of that seat (a
    face-down card is ``"?"``, a removed one ``None``; no names). ``options``: every legal
    move of the decision, best first, as ``{"code", "move", "points"}`` (``points``: the
    player's expected round score after it, from the confirming rollouts). ``rating`` is the
    OpenSkill ``mu``, indexed with the id for the choice of a player's next puzzle."""

    class Decision(models.TextChoices):
        TAKE_OR_DRAW = "take_or_draw", "take or draw"
        PLACE = "place", "place the drawn card"

    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    step = models.PositiveIntegerField(help_text="The replay's step number of the decision.")
    seat = models.PositiveSmallIntegerField()
    view = models.JSONField()
    decision = models.CharField(max_length=12, choices=Decision.choices)
    options = models.JSONField()
    answer = models.CharField(max_length=10, help_text="The best option's code.")
    played = models.CharField(max_length=10, help_text="The code of the move made in the game.")
    topic = models.CharField(max_length=16, help_text="The analysis' topic of the decision.")
    analysis_lost = models.FloatField(help_text="Points lost by the move made, per the analysis.")
    confirmed_lost = models.FloatField(help_text="The same, per the confirming rollouts.")
    confirmed_gap = models.FloatField(help_text="Best option over the second best, confirmed.")
    samples = models.PositiveIntegerField(help_text="Deals of the confirming rollouts.")
    rating = models.FloatField(default=START_MU)
    rating_sigma = models.FloatField(default=START_SIGMA)
    tries = models.PositiveIntegerField(default=0)
    solves = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "step"], condition=Q(game__isnull=False), name="puzzle_once"
            )
        ]
        indexes = [
            # The walks of the next puzzle's choice: in (rating, id) order, index-only.
            models.Index(fields=["rating", "id"], name="puzzle_rating_id"),
        ]

    def __str__(self) -> str:
        return f"Puzzle {self.pk} (game {self.game_id}, step {self.step})"

    @property
    def shown_rating(self) -> int:
        return shown(self.rating)

    def option(self, code: str) -> dict | None:
        return next((o for o in self.options if o["code"] == code), None)


class ExaminedGame(models.Model):
    """A finished game whose analysis (of ``version``) was searched for puzzles: not again."""

    game = models.OneToOneField(
        "games.Game", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    version = models.PositiveIntegerField()
    puzzles = models.PositiveSmallIntegerField(default=0)
    examined_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Game {self.game_id} examined (v{self.version})"


class Solver(models.Model):
    """A player's puzzle rating (OpenSkill) and streaks."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="puzzle_solver",
    )
    mu = models.FloatField(default=START_MU)
    sigma = models.FloatField(default=START_SIGMA)
    streak = models.PositiveIntegerField(default=0, help_text="Solved in a row in streak mode.")
    best_streak = models.PositiveIntegerField(default=0)
    tries = models.PositiveIntegerField(default=0)
    solves = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"Puzzle rating of user {self.user_id}"

    @property
    def shown_rating(self) -> int:
        return shown(self.mu)


class Attempt(models.Model):
    """One answer of a player to a puzzle (one per player and puzzle)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="puzzle_attempts",
        db_index=False,
    )
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    answer = models.CharField(max_length=10)
    solved = models.BooleanField()
    streak = models.BooleanField(default=False, help_text="Answered in streak mode.")
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # User first: the choice of the next puzzle reads a player's puzzle ids from it.
            models.UniqueConstraint(fields=["user", "puzzle"], name="attempt_once"),
        ]

    def __str__(self) -> str:
        return f"Attempt of user {self.user_id} at puzzle {self.puzzle_id}"
