"""A player's e-mail preferences and the outbox: one row per e-mail to send (docs/notifications.md)."""

from django.conf import settings
from django.db import models
from django.utils import timezone

QUIET_MAX = 1440  # minutes: the longest quiet time a player may choose (a day)


class Preference(models.Model):
    """What e-mails a player wants; made on first use with the defaults below."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    turn_email = models.BooleanField(
        default=True, help_text="An e-mail when a correspondence game waits for this player."
    )
    reminder_email = models.BooleanField(
        default=True, help_text="An e-mail when a quarter of the time for a move is left."
    )
    digest = models.BooleanField(
        default=False, help_text="One e-mail a day listing the games waiting, not one per turn."
    )
    quiet_minutes = models.PositiveSmallIntegerField(
        default=60, help_text="At most one turn e-mail per game within this many minutes."
    )
    token_generation = models.PositiveIntegerField(
        default=0, help_text="Unsubscribe links carry it; one used bumps it (each works once)."
    )

    def __str__(self) -> str:
        return f"preferences of user {self.user_id}"


class Outbox(models.Model):
    """One e-mail: written with the game's step (same transaction), sent by the bot runner."""

    class Kind(models.TextChoices):
        TURN = "turn", "Your turn"
        REMINDER = "reminder", "Time is running out"
        DIGEST = "digest", "Daily digest"

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"
        SKIPPED = "skipped", "Skipped"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="outbox"
    )
    game_id = models.BigIntegerField(null=True, blank=True, help_text="The game (digest: none).")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    dedup_key = models.CharField(max_length=120, unique=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_try_at = models.DateTimeField(
        default=timezone.now,
        help_text="Pending: when it is due; sending: when its claim lapses (then failed).",
    )
    deadline = models.DateTimeField(null=True, blank=True, help_text="The move's deadline.")
    language = models.CharField(max_length=10)
    subject = models.CharField(max_length=200, blank=True, help_text="Rendered when sent.")
    body = models.TextField(blank=True, help_text="Rendered when sent.")
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["state", "next_try_at"], name="outbox_due"),
            models.Index(fields=["user", "game_id", "-created_at"], name="outbox_user_game"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to user {self.user_id} ({self.state})"


class PushSubscription(models.Model):
    """One browser's Web Push subscription (its PushSubscription.toJSON()): the outbox's turn and
    reminder rows are pushed to each of the player's (docs/notifications.md, "Web Push")."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True, help_text="The push service's URL.")
    p256dh = models.CharField(max_length=100, help_text="The browser's P-256 key (base64url).")
    auth = models.CharField(max_length=40, help_text="The browser's auth secret (base64url).")
    created_at = models.DateTimeField(default=timezone.now)
    last_pushed_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True, help_text="The last push's error.")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"push subscription {self.pk} of user {self.user_id}"
