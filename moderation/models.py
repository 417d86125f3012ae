"""Reports by players (one target, once per reporter), and the moderators' audit log, whose
entries are never changed or deleted."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import user_or_none


class Report(models.Model):
    class Kind(models.TextChoices):
        MESSAGE = "message", _("Chat message")
        PLAYER = "player", _("Player")
        GAME = "game", _("Game")
        PUZZLE = "puzzle", _("Puzzle")

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Insults or harassment")
        SPAM = "spam", _("Spam or advertising")
        CHEATING = "cheating", _("Cheating or playing together against others")
        UNSPORTING = "unsporting", _("Stalling or leaving on purpose")
        NAME = "name", _("Offensive name or profile")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        DISMISSED = "dismissed", _("Dismissed")
        ACTIONED = "actioned", _("Acted on")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    player = user_or_none(
        related_name="reports_received",
        help_text="The reported player, or the author of the reported message.",
    )
    game = models.ForeignKey(
        "games.Game",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The reported game, or the game where the message or player was reported.",
    )
    lobby = models.ForeignKey(
        "games.Lobby", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    message_id = models.PositiveBigIntegerField(
        null=True, blank=True, help_text="The reported chat message (chat.Message)."
    )
    puzzle = models.ForeignKey(
        "puzzles.Puzzle",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The reported puzzle (one that seems wrong).",
    )
    reason = models.CharField(max_length=12, choices=Reason.choices)
    text = models.TextField(max_length=500, blank=True)
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    handled_by = user_or_none()
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        default_permissions = ("view",)
        permissions = [
            ("dismiss_report", "Can dismiss a report"),
            ("hide_message", "Can hide a chat message"),
            ("silence_player", "Can silence a player in chat for a time"),
            ("ban_player", "Can ban and unban a player"),
            ("close_lobby", "Can close a lobby"),
            ("stop_game", "Can stop (void) a game"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["reporter", target], condition=Q(kind=kind), name=f"report_once_per_{kind}"
            )
            for kind, target in (
                ("message", "message_id"),
                ("player", "player"),
                ("game", "game"),
                ("puzzle", "puzzle"),
            )
        ]

    def __str__(self) -> str:
        return f"Report #{self.pk} ({self.kind}, {self.status})"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN


class AppendOnly(Exception):
    """An audit log entry is never changed or deleted."""


class AuditEntry(models.Model):
    """One moderator action, with the names copied (renames and deletions leave it as it was)."""

    class Action(models.TextChoices):
        DISMISS = "dismiss", _("Dismissed a report")
        HIDE_MESSAGE = "hide_message", _("Hid a chat message")
        WARN = "warn", _("Warned")
        SILENCE = "silence", _("Silenced in chat")
        UNSILENCE = "unsilence", _("Lifted a chat silence")
        BAN = "ban", _("Banned")
        UNBAN = "unban", _("Unbanned")
        CLOSE_LOBBY = "close_lobby", _("Closed a lobby")
        STOP_GAME = "stop_game", _("Stopped a game")

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    moderator_name = models.CharField(max_length=150)
    action = models.CharField(max_length=15, choices=Action.choices)
    player = user_or_none(related_name="sanctions")
    player_name = models.CharField(max_length=150, blank=True)
    lobby = models.ForeignKey(
        "games.Lobby", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    message_id = models.PositiveBigIntegerField(null=True, blank=True)
    report = models.ForeignKey(
        Report, null=True, blank=True, on_delete=models.SET_NULL, related_name="actions"
    )
    reason = models.TextField(blank=True)
    until = models.DateTimeField(
        null=True, blank=True, help_text="End of a silence or of a ban for a time."
    )

    class Meta:
        ordering = ["-created_at", "-pk"]
        default_permissions = ("view",)
        verbose_name = "audit log entry"
        verbose_name_plural = "audit log"

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.moderator_name}: {self.action}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnly("an audit log entry is never changed")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnly("an audit log entry is never deleted")
