"""Tournaments, their entries, tables and seats. Models hold data only: every change goes
through tournaments.services.

A table is one game of the games app (``Table.game``), opened by games.services.table_open with
the tournament's rules and turn clock. ``TableSeat`` ties an entry to a table; an entry sits at
one playing table at most (a unique index over the seats still ``playing``), so that no
process can seat anyone twice.
"""

import secrets
from datetime import timedelta

from django.db import models
from django.db.models import Q

from accounts.models import user_or_none

MIN_TABLE, MAX_TABLE = 2, 4
DURATIONS = (30, 60, 90, 120)  # arena minutes
MAX_ROUNDS = 11
MAX_PLAYERS = 1000


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Tournament(models.Model):
    class Kind(models.TextChoices):
        ARENA = "arena", "Arena"
        SWISS = "swiss", "Swiss"

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    class Repeat(models.TextChoices):
        NONE = "", "Once"
        HOURLY = "hourly", "Hourly"
        DAILY = "daily", "Daily"
        WEEKLY = "weekly", "Weekly"

    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=5, choices=Kind.choices)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.SCHEDULED, db_index=True
    )
    created_by = user_or_none(related_name="tournaments_created")
    is_public = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    starts_at = models.DateTimeField(db_index=True)
    duration = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Arena minutes.")
    rounds = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Swiss rounds.")
    round = models.PositiveSmallIntegerField(default=0, help_text="Swiss: the round now played.")
    table_min = models.PositiveSmallIntegerField(default=2)
    table_max = models.PositiveSmallIntegerField(default=4)
    max_players = models.PositiveSmallIntegerField(default=100)
    turn_clock = models.PositiveSmallIntegerField(default=30)
    end_score = models.PositiveIntegerField(default=100)
    double_on_tie = models.BooleanField(default=True)
    final_reveal_clears_columns = models.BooleanField(default=True)
    disconnect_grace = models.PositiveIntegerField(default=60)
    rated = models.BooleanField(default=True)
    repeat = models.CharField(max_length=6, choices=Repeat.choices, blank=True, default="")
    room = models.ForeignKey(
        "games.Lobby",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The tournament's chat: a lobby without seats (games.services.room_open).",
    )
    version = models.PositiveIntegerField(
        default=0, help_text="Counts every change of the standings or tables (the live page)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at", "id"]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"

    @property
    def ends_at(self):
        """An arena's end: no table opens after it (tables playing then play to their end)."""
        if self.duration is None:
            return None
        return self.starts_at + timedelta(minutes=self.duration)

    @property
    def is_arena(self) -> bool:
        return self.kind == self.Kind.ARENA

    def invited_by(self, code) -> bool:
        return bool(code) and secrets.compare_digest(str(code).encode(), self.invite_code.encode())


class Entry(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        PAUSED = "paused", "Paused"
        WITHDRAWN = "withdrawn", "Withdrawn"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = user_or_none(related_name="tournament_entries")
    bot_level = models.CharField(max_length=10, blank=True)
    name = models.CharField(max_length=150)
    rating = models.FloatField(default=0, help_text="The shown rating at entry (pairing).")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    withdrawn_because = models.CharField(max_length=20, blank=True)
    points = models.IntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    streak = models.PositiveSmallIntegerField(default=0)
    byes = models.PositiveSmallIntegerField(default=0)
    buchholz = models.IntegerField(default=0)
    free_since = models.DateTimeField(null=True, blank=True, help_text="Arena: waiting since.")
    place = models.PositiveIntegerField(null=True, blank=True, help_text="Final place.")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=Q(user__isnull=False),
                name="tournament_entry_once",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "-points"], name="tournament_points")]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.name} in {self.tournament_id}"


class Table(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        VOID = "void", "Void"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    round = models.PositiveSmallIntegerField(default=0)
    game = models.OneToOneField(
        "games.Game", null=True, on_delete=models.SET_NULL, related_name="tournament_table"
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.PLAYING, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "id"]

    def __str__(self) -> str:
        return f"table {self.pk} of {self.tournament_id}"


class TableSeat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(help_text="The seat in the game.")
    playing = models.BooleanField(default=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.IntegerField(null=True, blank=True)
    no_show = models.BooleanField(default=False, help_text="Never came: a bot played the seat.")

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["entry"], condition=Q(playing=True), name="tournament_seated_once"
            ),
            models.UniqueConstraint(fields=["table", "seat"], name="tournament_seat_unique"),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat} of table {self.table_id}"
