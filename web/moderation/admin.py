"""Reports and the audit log in the admin, read-only: reports are handled from the moderation
queue through moderation.services; audit log entries are never written by hand."""

from django.contrib import admin

from moderation.models import AuditEntry, Report
from web.games.admin import ReadOnlyMixin


@admin.register(Report)
class ReportAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "created_at", "kind", "reason", "reporter", "player", "game", "status")
    list_filter = ("status", "kind", "reason")
    list_select_related = ("reporter", "player", "game")
    search_fields = ("reporter__username", "player__username", "text")


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = (
        "created_at",
        "moderator_name",
        "action",
        "player_name",
        "lobby",
        "game",
        "until",
        "reason",
    )
    list_filter = ("action",)
    list_select_related = ("lobby", "game")
    search_fields = ("moderator_name", "player_name", "reason")
