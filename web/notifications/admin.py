"""The outbox in the admin, read-only: what was sent, skipped or failed, and why."""

from django.contrib import admin

from notifications.models import Outbox, PushSubscription
from web.games.admin import ReadOnlyMixin


@admin.register(Outbox)
class OutboxAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ("id", "user", "kind", "game_id", "state", "attempts", "created_at", "sent_at")
    list_filter = ("kind", "state")
    list_select_related = ("user",)
    search_fields = ("user__username", "dedup_key")


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The browsers subscribed to Web Push; a failing one shows its last error."""

    list_display = ("id", "user", "created_at", "last_pushed_at", "last_error")
    list_select_related = ("user",)
    search_fields = ("user__username",)
