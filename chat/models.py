"""Chat messages (of one lobby, or of a game's players' or spectators' channel), players'
mutes and moderators' silences; written by chat.services only."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from accounts.models import user_or_none

MAX_LENGTH = 300


class Message(models.Model):
    class Channel(models.TextChoices):
        PLAYERS = "players", "Players"
        SPECTATORS = "spectators", "Spectators"

    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    lobby = models.ForeignKey(
        "games.Lobby", null=True, blank=True, on_delete=models.CASCADE, related_name="chat_messages"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="chat_messages"
    )
    channel = models.CharField(max_length=10, choices=Channel.choices, default=Channel.PLAYERS)
    text = models.CharField(max_length=MAX_LENGTH)
    quick = models.CharField(
        max_length=10,
        blank=True,
        help_text="A quick message's code (chat.quick); it is shown in each reader's language.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = user_or_none()

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(lobby__isnull=False, game__isnull=True)
                | Q(lobby__isnull=True, game__isnull=False),
                name="chat_message_in_lobby_xor_game",
            )
        ]
        indexes = [
            models.Index(fields=["game", "channel", "-id"], name="chat_game_channel"),
            models.Index(fields=["lobby", "-id"], name="chat_lobby"),
            models.Index(fields=["author", "-created_at"], name="chat_author_recent"),
        ]

    def __str__(self) -> str:
        where = f"game {self.game_id}" if self.game_id else f"lobby {self.lobby_id}"
        return f"#{self.pk} by {self.author_id} in {where} ({self.channel})"

    @property
    def is_hidden(self) -> bool:
        return self.hidden_at is not None


class Mute(models.Model):
    """``muter`` no longer sees ``muted``'s messages, in every lobby and game."""

    muter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["muter", "muted"], name="chat_mute_once")]

    def __str__(self) -> str:
        return f"{self.muter_id} mutes {self.muted_id}"


class Silence(models.Model):
    """A moderator's chat silence: ``user`` may not post until ``until`` (``None``: for good),
    unless it was lifted."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_silences"
    )
    until = models.DateTimeField(null=True, blank=True, help_text="Empty: for good.")
    reason = models.CharField(max_length=500)
    by = user_or_none()
    created_at = models.DateTimeField(default=timezone.now)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lifted_by = user_or_none()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "-created_at"], name="chat_silence_user")]

    def __str__(self) -> str:
        return f"silence of {self.user_id} until {self.until or 'for good'}"
