"""Rows SQL aggregates without joins: one per player per scored round, per finished game and
per rated game, written by ``stats.recording`` and never changed after but ``counted``."""

from django.conf import settings
from django.db import models

from accounts.models import user_or_none
from games.models import Game


class SeatRow(models.Model):
    """One seat of one game, with what its aggregates filter on."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    user = user_or_none()
    is_bot = models.BooleanField(default=False)
    player_count = models.PositiveSmallIntegerField()
    with_bots = models.BooleanField(help_text="The game had at least one bot seat.")
    is_public = models.BooleanField(default=False)

    class Meta:
        abstract = True


class RoundResult(SeatRow):
    """One seat's result in one scored round; ``counted`` once the game finishes."""

    number = models.PositiveSmallIntegerField()
    counted = models.BooleanField(
        default=False, help_text="The game finished (not stopped, not voided): it counts."
    )
    score = models.IntegerField(help_text="The round's score, doubled if it was.")
    raw = models.IntegerField(help_text="The cards' sum before any doubling.")
    ended = models.BooleanField(help_text="This player ended the round.")
    doubled = models.BooleanField()
    columns_removed = models.PositiveSmallIntegerField()
    turned_at_end = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Cards still face down when the round ended, turned up by its scoring "
        "(empty for rounds scored before this was kept).",
    )
    scored_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number", "seat"], name="roundresult_unique_seat"
            ),
        ]
        # Every column the profile reads: index-only scans on PostgreSQL.
        indexes = [
            models.Index(
                fields=["user", "with_bots", "score"],
                include=[
                    "counted",
                    "is_public",
                    "ended",
                    "doubled",
                    "columns_removed",
                    "game",
                    "scored_at",
                ],
                name="roundresult_user_score",
            )
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} round {self.number} seat {self.seat}: {self.score}"


class GameResult(SeatRow):
    """One seat's result in one game that counts; deleted if the game is voided."""

    total = models.IntegerField()
    won = models.BooleanField()
    place = models.PositiveSmallIntegerField(
        help_text="1 + the seats with a lower total, forfeited seats left out; the last place "
        "(the number of players) for a resigned or forfeited seat."
    )
    resigned = models.BooleanField(
        default=False,
        help_text="This player ended the game against bots before its end: a loss, in last "
        "place, whose total is no game's total (no best or worst game).",
    )
    forfeited = models.BooleanField(
        default=False,
        help_text="This player lost on time in a correspondence game (a bot played on): a loss, "
        "in last place, whose total is partly the bot's (no best or worst game).",
    )
    rounds = models.PositiveSmallIntegerField()
    finished_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="gameresult_unique_seat"),
        ]
        indexes = [
            models.Index(fields=["user", "-finished_at"], name="gameresult_user_recent"),
            models.Index(
                fields=["user", "with_bots", "total"],
                include=["is_public", "won", "player_count", "finished_at", "game", "resigned"],
                name="gameresult_user_total",
            ),
            models.Index(fields=["game", "user"], include=["total"], name="gameresult_game_user"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} seat {self.seat}: {self.total}"


class RatingChange(models.Model):
    """A player's rating before and after one rated game (their rating history), of the
    ``kind`` of rating the game moved."""

    class Kind(models.TextChoices):
        LIVE = "live", "Live"
        CORRESPONDENCE = "correspondence", "Correspondence"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.LIVE)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rating_before = models.IntegerField()
    rating_after = models.IntegerField()
    rated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="ratingchange_unique_game"),
        ]
        indexes = [models.Index(fields=["user", "rated_at"], name="ratingchange_user_time")]

    def __str__(self) -> str:
        return f"user {self.user_id} game {self.game_id}: {self.rating_before}->{self.rating_after}"


class ProfileVersion(models.Model):
    """A token replaced whenever a player's figures may change: the key of their cached profile."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    token = models.BigIntegerField()

    def __str__(self) -> str:
        return f"user {self.user_id}: {self.token}"
