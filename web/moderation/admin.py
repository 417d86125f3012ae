"""Reports and the audit log in the admin, read-only: reports are handled from the moderation
queue (/moderation/) through moderation.services; audit log entries are never added, changed
or deleted by hand."""

from django.contrib import admin

from moderation.models import AuditEntry, Report


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    list_display = ("id", "created_at", "kind", "reason", "reporter", "player", "game", "status")
    list_filter = ("status", "kind", "reason")
    list_select_related = ("reporter", "player", "game")
    search_fields = ("reporter__username", "player__username", "text")


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
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
