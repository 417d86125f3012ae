"""Lobbies, seats and games: data only, every change goes through games.services. A game's
state is its engine snapshot; its history is in ``Round`` and ``Move`` rows written once."""

import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from accounts.models import user_or_none

MIN_SEATS = 2
MAX_SEATS = 8
# Seconds per turn a lobby may choose; 0 is off (games.clock).
TURN_CLOCKS = (0, 15, 30, 60, 120)
# Days per move a correspondence lobby may choose (docs/correspondence.md); 0 is a live lobby.
MOVE_DAYS = (1, 2, 3, 7)


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


def default_disconnect_grace() -> int:
    return settings.SKYJO_DISCONNECT_GRACE


class Lobby(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        CLOSED = "closed", "Closed"

    name = models.CharField(max_length=60)
    host = user_or_none(related_name="hosted_lobbies")
    seat_count = models.PositiveSmallIntegerField(
        default=4, validators=[MinValueValidator(MIN_SEATS), MaxValueValidator(MAX_SEATS)]
    )
    is_public = models.BooleanField(
        default=True, help_text="Public lobbies are listed; private ones are joined by invite link."
    )
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    end_score = models.PositiveIntegerField(
        default=100, validators=[MinValueValidator(1), MaxValueValidator(1000)]
    )
    double_on_tie = models.BooleanField(default=True)
    final_reveal_clears_columns = models.BooleanField(default=True)
    disconnect_grace = models.PositiveIntegerField(
        default=default_disconnect_grace,
        validators=[MaxValueValidator(3600)],
        help_text="Seconds a disconnected player keeps their turns before the medium bot plays them.",
    )
    turn_clock = models.PositiveSmallIntegerField(
        default=0,
        help_text="Seconds per turn (and for getting ready) before the medium bot plays it; 0: off.",
    )
    move_days = models.PositiveSmallIntegerField(
        default=0,
        help_text="Correspondence: days per move (one of MOVE_DAYS); 0: a live lobby.",
    )

    class OnTimeout(models.TextChoices):
        BOT = "bot", "The medium bot plays that turn"
        FORFEIT = "forfeit", "The player loses; the game goes on without them"

    on_timeout = models.CharField(
        max_length=8,
        choices=OnTimeout.choices,
        default=OnTimeout.BOT,
        help_text="Correspondence: what happens when a player's time for a move runs out.",
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    rated = models.BooleanField(
        default=True, help_text="Whether its games between people change their ratings."
    )
    offers_rematch = models.BooleanField(
        default=True,
        help_text="Whether its players may start a rematch: not at a tournament's tables.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    game = models.ForeignKey(
        "Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    removed_users = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="+", help_text="Removed by the host."
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "lobbies"

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"

    def invited_by(self, code) -> bool:
        """Whether ``code`` is this lobby's invite, compared in constant time (as bytes)."""
        return bool(code) and secrets.compare_digest(str(code).encode(), self.invite_code.encode())

    @property
    def is_correspondence(self) -> bool:
        return self.move_days > 0

    @property
    def clock_seconds(self) -> int:
        """Seconds per turn: the days per move of a correspondence lobby, else the turn clock."""
        return self.move_days * 86400 if self.move_days else self.turn_clock

    @property
    def rules_json(self) -> dict:
        return {
            "end_score": self.end_score,
            "double_on_tie": self.double_on_tie,
            "final_reveal_clears_columns": self.final_reveal_clears_columns,
        }


class Seat(models.Model):
    """One of a lobby's ``seat_count`` places: empty, a player, or (later) a bot."""

    lobby = models.ForeignKey(Lobby, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = user_or_none()
    bot_level = models.CharField(max_length=10, blank=True)

    class Meta:
        ordering = ["lobby", "index"]
        constraints = [
            models.UniqueConstraint(fields=["lobby", "index"], name="seat_unique_index"),
            models.UniqueConstraint(fields=["lobby", "user"], name="seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.lobby_id}/{self.index}"

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot_level

    @property
    def bot_label(self) -> str:
        from games.labels import BOT_LEVEL_LABELS

        return BOT_LEVEL_LABELS.get(self.bot_level, self.bot_level.title())


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    lobby = models.ForeignKey(Lobby, on_delete=models.CASCADE, related_name="games")
    seed = models.BigIntegerField()
    version = models.PositiveIntegerField(
        default=0, help_text="Counts every change of state; clients send the one they saw."
    )
    snapshot = models.JSONField(
        help_text="The engine's state now (games.engine.snapshot), saved with every version."
    )
    seats_version = models.PositiveIntegerField(
        default=0,
        help_text=(
            "Counts the changes of its seats a move reads (connections, timeouts, forfeits) that "
            "are not a new version: a move's conditional write checks it with the version."
        ),
    )
    phase = models.CharField(max_length=12, default="reveal")
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PLAYING, db_index=True
    )
    ready = models.JSONField(default=list, blank=True, help_text="Seats ready for next round.")
    recent = models.JSONField(
        default=list,
        blank=True,
        help_text="The last moves, newest first, as public facts (games.movelog; a few only).",
    )
    rematch = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    bot_due_at = models.DateTimeField(
        null=True,
        blank=True,
        db_index=True,
        help_text="When the server next looks at this game (a bot's turn, or a grace check).",
    )
    turn_started_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the seats now to act began to wait for (the turn clock counts from it).",
    )
    voided = models.BooleanField(
        default=False,
        help_text=(
            "Stopped by a moderator, or ended by the only human of a game against bots before "
            "their first move: counts nowhere (statistics, ratings, leaderboards)."
        ),
    )
    resigned = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=(
            "The seat of the only human of a game against bots who ended it after a move of "
            "their own: it counts in their statistics, that seat last (not rated: bots)."
        ),
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Game #{self.pk}"

    @property
    def counts(self) -> bool:
        """Whether it counts in statistics, ratings and leaderboards: finished and not voided,
        or resigned (docs/moderation.md)."""
        finished = self.status == self.Status.FINISHED and not self.voided
        return finished or self.resigned is not None

    @property
    def is_over(self) -> bool:
        return self.status != self.Status.PLAYING


class GamePlayer(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField()
    user = user_or_none(related_name="game_players")
    bot_level = models.CharField(max_length=10, blank=True)
    name = models.CharField(max_length=150)
    total = models.IntegerField(default=0)
    won = models.BooleanField(default=False)
    connections = models.PositiveSmallIntegerField(
        default=0, help_text="Open game sockets of this player (humans only)."
    )
    last_seen = models.DateTimeField(
        null=True, blank=True, help_text="Last sign of life: connect, frame, heartbeat, disconnect."
    )
    timeouts = models.PositiveSmallIntegerField(
        default=0, help_text="Turns in a row the turn clock ran out on (a frame or move: 0)."
    )
    forfeited = models.BooleanField(
        default=False,
        help_text="Correspondence: lost on time; the medium bot plays the seat, ranked last.",
    )
    waiting = models.BooleanField(
        default=False,
        help_text="Correspondence: the game waits for this player now (their 'your turn' list).",
    )

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="gameplayer_unique_seat"),
        ]
        indexes = [
            models.Index(
                fields=["user"],
                condition=models.Q(waiting=True),
                name="gameplayer_user_waiting",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} in game {self.game_id}"


class Round(models.Model):
    """A dealt round: its deck is secret until the game is over."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    deck = models.JSONField()
    starter = models.PositiveSmallIntegerField(null=True, blank=True)
    ender = models.PositiveSmallIntegerField(null=True, blank=True)
    raw = models.JSONField(null=True, blank=True)
    scores = models.JSONField(null=True, blank=True)
    dealt_at = models.DateTimeField(auto_now_add=True)
    scored_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="round_unique_number"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of game {self.game_id}"


class Move(models.Model):
    """One accepted engine step, stored before anybody hears of it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    version = models.PositiveIntegerField()
    round = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    reshuffle = models.JSONField(
        null=True,
        blank=True,
        help_text="The new draw pile (record order) when this step emptied it; else empty.",
    )
    stand_in = models.BooleanField(
        default=False,
        help_text="Played by the server for a human seat (away, out of time, forfeited or "
        "account gone): not that player's decision.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="move_unique_version"),
        ]

    def __str__(self) -> str:
        return f"v{self.version} seat {self.seat}: {self.action}"


class Vacation(models.Model):
    """A player's correspondence clocks paused from ``starts_at`` to ``ends_at`` (ended early:
    ``ends_at`` moved back); at most ``settings.SKYJO_VACATION_DAYS`` days a calendar year."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()

    class Meta:
        ordering = ["user", "-starts_at"]
        indexes = [models.Index(fields=["user", "-ends_at"], name="vacation_user_end")]

    def __str__(self) -> str:
        return f"user {self.user_id}: {self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"
